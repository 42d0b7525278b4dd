"use client";
import { useAttestationChangeMutation } from "@/data/attestation/attestation-change-mutation";
import { toast } from "@/components/ui/toast";

/** A change to the attestors' knowledge from a server-rendered page, and how it ended, said in a toast. */
export function useAttestationChange<Variables, Result>(
  change: (variables: Variables) => Promise<Result>,
  describe: (result: Result, variables: Variables) => string,
) {
  return useAttestationChangeMutation(change, {
    onSuccess: (result, variables) => toast.success(describe(result, variables)),
    onError: (error) => toast.error(`${error.code}: ${error.message}`),
  });
}
