import type { APIRequestContext } from "@playwright/test";

// "Someone else" deciding: the published API with a demo service key (SPEC Part C).
export const SERVICE_KEYS = {
  acmeAdmin: "bcsk_acmeadmin.demo-acme-admin-secret",
} as const;

export async function callAsService(
  request: APIRequestContext,
  method: string,
  body: Record<string, unknown>,
  key: string = SERVICE_KEYS.acmeAdmin,
) {
  const response = await request.post(`/api/compute/${method}`, {
    headers: { authorization: `Bearer ${key}` },
    data: body,
  });
  return { status: response.status(), body: await response.json() };
}
