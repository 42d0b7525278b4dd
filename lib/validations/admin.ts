import { z } from "zod";
import { codePointLength, optional, poolIdField, REASON_PATTERN, serviceKeyIdField, siteIdField, tenantIdField } from "./fields";

// Inputs of the operator's administration (SPEC E1): the same id rules as the
// API's methods, so what the CLI makes, every method can name.

/** A display name: 1-128 code points, no control characters. */
export const displayNameField = z
  .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
  .refine((value) => value.trim().length > 0, "must not be empty")
  .refine((value) => codePointLength(value) <= 128, "must be at most 128 characters")
  .refine((value) => REASON_PATTERN.test(value), "must not contain control characters");

export const emailField = z
  .string({ error: "must be a string" })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "must be an email address" }).max(254, { error: "must be at most 254 characters" }));

export const ROLE_NAMES = ["pool-viewer", "pool-admin", "tenant-admin"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];
export const roleNameField = z.enum(ROLE_NAMES, { error: `must be one of ${ROLE_NAMES.join(", ")}` });

export const createTenantInput = z.strictObject({ id: tenantIdField, name: displayNameField });
export const createSiteInput = z.strictObject({ tenantId: tenantIdField, id: siteIdField, name: displayNameField });
export const createPoolInput = z.strictObject({
  tenantId: tenantIdField,
  siteId: siteIdField,
  id: poolIdField,
  name: displayNameField,
  requiresTpm: z.boolean(),
});
export const poolRefInput = z.strictObject({ tenantId: tenantIdField, id: poolIdField });

export const PASSWORD_MIN_LENGTH = 12;
export const createUserInput = z.strictObject({
  email: emailField,
  name: displayNameField,
  // absent: a single-sign-on-only user
  password: optional(
    z
      .string()
      .refine((value) => codePointLength(value) >= PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
      .refine((value) => codePointLength(value) <= 1024, "must be at most 1024 characters"),
  ),
});

/** Who a grant is for: a user by email, or a service key by id. */
export const grantSubjectInput = z.union([z.strictObject({ userEmail: emailField }), z.strictObject({ serviceKeyId: serviceKeyIdField })]);

export const grantInput = z
  .strictObject({
    tenantId: tenantIdField,
    subject: grantSubjectInput,
    role: roleNameField,
    // null: every pool of the tenant
    poolId: poolIdField.nullable(),
  })
  .refine((grant) => grant.role !== "tenant-admin" || grant.poolId === null, {
    path: ["poolId"],
    message: "tenant-admin is granted on every pool of the tenant (--all-pools), never on one pool",
  });

export const createServiceKeyInput = z.strictObject({
  tenantId: tenantIdField,
  // absent: a new random id
  id: optional(serviceKeyIdField),
  name: displayNameField,
});
export const serviceKeyRefInput = z.strictObject({ tenantId: tenantIdField, id: serviceKeyIdField });

export type CreateTenantInput = z.output<typeof createTenantInput>;
export type CreateSiteInput = z.output<typeof createSiteInput>;
export type CreatePoolInput = z.output<typeof createPoolInput>;
export type CreateUserInput = z.output<typeof createUserInput>;
export type GrantInput = z.output<typeof grantInput>;
export type GrantSubject = z.output<typeof grantSubjectInput>;
export type CreateServiceKeyInput = z.output<typeof createServiceKeyInput>;
