import { z } from "zod";

// Field shapes of what the methods answer (SPEC B1): timestamps are RFC 3339
// UTC with milliseconds, exactly as Date#toISOString writes them.

export const timestamp = z.iso.datetime({ precision: 3 });
export const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
/** The `nextCursor` of a page: present only when more items follow. */
export const nextCursor = z.string().optional();
