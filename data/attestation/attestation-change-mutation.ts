"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import type { ApiClientError } from "@/lib/api-client/api-client-error";
import { attestationKeys } from "./keys";

/**
 * A change to the attestors' knowledge from a server-rendered page: runs the
 * call, then re-renders the page from the server, success or not (someone
 * else may have changed the list meanwhile).
 */
export function useAttestationChangeMutation<Variables, Result>(
  change: (variables: Variables) => Promise<Result>,
  callbacks: { onSuccess?: (result: Result, variables: Variables) => void; onError?: (error: ApiClientError) => void } = {},
) {
  const router = useRouter();
  return useMutation<Result, ApiClientError, Variables>({
    mutationKey: attestationKeys.change(),
    mutationFn: change,
    onSuccess: (result, variables) => callbacks.onSuccess?.(result, variables),
    onError: (error) => callbacks.onError?.(error),
    onSettled: () => router.refresh(),
  });
}
