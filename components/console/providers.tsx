"use client";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { lazy, Suspense, useState, type ReactNode } from "react";
import { isApiClientError } from "@/lib/api-client/api-client-error";

// Toasts only follow a decision, made in a dialog that loads on demand: the
// toaster loads after the page, not in its first load.
const Toaster = lazy(() => import("sonner").then((m) => ({ default: m.Toaster })));

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 2_000,
        // A 4xx will not get better by asking again.
        retry: (failures, error) => !(isApiClientError(error) && error.status >= 400 && error.status < 500) && failures < 2,
      },
    },
  });
}

/** One QueryClient per browser session (kept across renders), and the toasts. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Suspense fallback={null}>
        <Toaster theme="system" richColors closeButton position="bottom-right" />
      </Suspense>
    </QueryClientProvider>
  );
}
