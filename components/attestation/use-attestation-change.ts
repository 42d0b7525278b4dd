"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { toast } from "@/components/ui/toast";

/**
 * A change to the attestors' knowledge from a server-rendered page: runs the
 * call, then re-renders the page from the server (success or not: someone
 * else may have changed the list meanwhile), and says how it ended.
 */
export function useAttestationChange<Variables, Result>(
  change: (variables: Variables) => Promise<Result>,
  describe: (result: Result, variables: Variables) => string,
) {
  const router = useRouter();
  return useMutation<Result, ApiClientError, Variables>({
    mutationFn: change,
    onSuccess: (result, variables) => toast.success(describe(result, variables)),
    onError: (error) => toast.error(`${error.code}: ${error.message}`),
    onSettled: () => router.refresh(),
  });
}
