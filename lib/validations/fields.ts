import { z } from "zod";

// Field builders shared by every method schema (SPEC Part A constraints).
// Messages name the rule, the wrapper prefixes the field: "ttlSeconds: must be ...".

/** "Characters" are Unicode code points (SPEC B2), not UTF-16 units. */
export const codePointLength = (value: string): number => [...value].length;

const requiredString = () => z.string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") });

/**
 * A required string of at most `max` code points matching `pattern`. The
 * checks are refinements (code points, not UTF-16 units), so the bounds are
 * also declared as JSON Schema metadata for the reference pages and OpenAPI
 * (JSON Schema counts characters as code points too).
 */
export function patternString(max: number, pattern: RegExp) {
  return requiredString()
    .refine((value) => codePointLength(value) <= max, `must be at most ${max} characters`)
    .refine((value) => pattern.test(value), `must match ${pattern.source}`)
    .meta({ maxLength: max, pattern: pattern.source });
}

/** An integer in [min, max]; "3600" and 60.5 are refused, never coerced. */
export function boundedInt(min: number, max: number) {
  const message = `must be an integer from ${min} to ${max}`;
  return z.int({ error: message }).min(min, { error: message }).max(max, { error: message });
}

/** An optional field: omitted or null both mean the default (SPEC B2). */
export function withDefault<T extends z.ZodType>(schema: T, fallback: z.output<T>) {
  return schema
    .nullish()
    .meta({ default: fallback })
    .transform((value): z.output<T> => value ?? fallback);
}

/** An optional field without a default: omitted or null both read as undefined. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().transform((value) => value ?? undefined);
}

export const TENANT_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;
export const POOL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
export const JOIN_REQUEST_ID_PATTERN = /^jreq_[0-9a-hjkmnp-tv-z]{26,52}$/;
export const EVENT_ID_PATTERN = /^evt_[0-9a-hjkmnp-tv-z]{26,52}$/;
// SPEC D1/D3: a node and a snapshot are one prefix and one ULID.
export const NODE_ID_PATTERN = /^node_[0-9a-hjkmnp-tv-z]{26}$/;
export const SNAPSHOT_ID_PATTERN = /^inv_[0-9a-hjkmnp-tv-z]{26}$/;
// No C0 control characters and no DEL.
export const REASON_PATTERN = /^[^\u0000-\u001f\u007f]*$/;

export const tenantIdField = patternString(128, TENANT_ID_PATTERN);
export const poolIdField = patternString(128, POOL_ID_PATTERN);
export const joinRequestIdField = patternString(64, JOIN_REQUEST_ID_PATTERN);
export const nodeIdField = patternString(31, NODE_ID_PATTERN);
export const snapshotIdField = patternString(30, SNAPSHOT_ID_PATTERN);
export const reasonField = requiredString()
  .refine((value) => codePointLength(value) <= 256, "must be at most 256 characters")
  .refine((value) => REASON_PATTERN.test(value), "must not contain control characters")
  .meta({ maxLength: 256, pattern: REASON_PATTERN.source });

// Site ids follow the pool id pattern: both are unique across the control plane.
export const siteIdField = patternString(128, POOL_ID_PATTERN);
// The id inside a service key's bearer `bcsk_<id>.<secret>`.
export const SERVICE_KEY_ID_PATTERN = /^[0-9a-z]{1,64}$/;
export const serviceKeyIdField = patternString(64, SERVICE_KEY_ID_PATTERN);
