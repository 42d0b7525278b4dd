"use client";
import type { ExternalToast } from "sonner";

// The dialogs toast through here instead of importing sonner: each dialog is
// a lazily loaded chunk, and each such chunk carried its own copy of sonner
// (~9.5 kB gzipped) beside the one the console's <Toaster> loads. Asking for
// the module the Toaster already imported reuses that one chunk.
const sonner = () => import("sonner");

export const toast = {
  success: (message: string, data?: ExternalToast) => void sonner().then(({ toast }) => toast.success(message, data)),
  error: (message: string, data?: ExternalToast) => void sonner().then(({ toast }) => toast.error(message, data)),
};
