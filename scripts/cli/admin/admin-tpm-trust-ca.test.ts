import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { inProcessAdmin, json, unique } from "@/test/cli/admin";
import { readTrustAnchor } from "@/lib/tpm/trust-anchor";
import { cliFailure } from "../shared/run-cli";
import { ADMIN_HELP, runAdmin } from "./run-admin";

const { admin, adminWorld } = inProcessAdmin({ main: runAdmin, failure: (error) => cliFailure("admin", ADMIN_HELP, error) });

// `npm run admin -- tpm trust-ca add|list|remove --pem FILE` (SPEC I1).

const fixture = (name: string) => readFileSync(`fixtures/tpm-ek-certificates/${name}`, "utf8");
const ROOT = fixture("localca-root.pem");
const ROOT_SHA256 = readTrustAnchor(ROOT).sha256;

describe("admin tpm trust-ca", () => {
  it("adds a root idempotently, lists it with subject, fingerprint and validity, removes it; one event per change", async () => {
    const { tenantId } = await adminWorld();
    const base = ["--tenant", tenantId, "--pem", "root.pem"];
    const files = { "root.pem": ROOT };
    expect((await admin(["tpm", "trust-ca", "add", ...base], { files })).stdout).toBe(
      `created: root CN=swtpm-localca-rootca (SHA-256 ${ROOT_SHA256}) trusted`,
    );
    expect((await admin(["tpm", "trust-ca", "add", ...base], { files })).stdout).toMatch(/trusted: unchanged \(already so\)/);
    const listed = json<{ roots: { sha256: string; subject: string; notBefore: string; notAfter: string }[] }>(
      await admin(["tpm", "trust-ca", "list", "--tenant", tenantId, "--json"]),
    );
    expect(listed.roots).toEqual([
      expect.objectContaining({ sha256: ROOT_SHA256, subject: "CN=swtpm-localca-rootca", notBefore: expect.any(String) }),
    ]);
    const table = await admin(["tpm", "trust-ca", "list", "--tenant", tenantId]);
    expect(table.stdout.split("\n")[0]).toMatch(/^SHA-256\s+SUBJECT\s+NOT BEFORE\s+NOT AFTER$/);
    expect((await admin(["tpm", "trust-ca", "remove", ...base], { files })).stdout).toBe(`removed the root from ${tenantId}'s trust store`);
    expect((await admin(["tpm", "trust-ca", "remove", ...base], { files })).stdout).toBe("it was not in the trust store; nothing changed");
    const events = await (
      await getDb()
    ).event.findMany({ where: { tenantId, type: "compute.tpm-trust-store.changed" }, orderBy: { id: "asc" } });
    expect(events.map((event) => (event.data as { verb: string }).verb)).toEqual(["add", "remove"]);
    expect(events[0]!.data).toMatchObject({ sha256: ROOT_SHA256, actor: expect.stringMatching(/^cli:/) });
  });

  it("refuses an EK certificate (no CA), text that is no certificate, a missing --pem, an unknown tenant", async () => {
    const { tenantId } = await adminWorld();
    const add = (files: Record<string, string>, tenant = tenantId) =>
      admin(["tpm", "trust-ca", "add", "--tenant", tenant, "--pem", "c.pem"], { files });
    expect(await add({ "c.pem": fixture("ek-rsa.pem") })).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^admin failed: certificate: is not a CA certificate/),
    });
    expect(await add({ "c.pem": "hello" })).toMatchObject({ code: 1, stderr: "admin failed: certificate: is not a PEM CERTIFICATE" });
    expect((await admin(["tpm", "trust-ca", "add", "--tenant", tenantId])).code).toBe(2);
    expect((await add({ "c.pem": ROOT }, unique("nobody"))).code).toBe(1);
    expect(await (await getDb()).tpmTrustedRoot.count({ where: { tenantId } })).toBe(0);
  });

  it("shows the two-word verbs in the noun's usage", async () => {
    const help = await admin(["tpm", "--help"]);
    expect(help.stdout).toContain("npm run admin -- tpm trust-ca add --tenant <tenantId> --pem <root certificate file>");
  });
});
