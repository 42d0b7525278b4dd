import "server-only";
import { isPlaceholderHardwareId } from "./hardware";

// What makes two nodes the same machine (SPEC F2) or the same name (F3):
// compared case-insensitively, as firmware and DNS do. A placeholder UUID
// names no machine, so it has no key and never conflicts.

export function uuidKeyOf(systemUuid: string): string | null {
  return isPlaceholderHardwareId(systemUuid) ? null : systemUuid.trim().toLowerCase();
}

export function hostnameKeyOf(hostname: string): string {
  return hostname.toLowerCase();
}
