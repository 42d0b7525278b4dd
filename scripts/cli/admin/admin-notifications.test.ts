import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { inProcessAdmin, json, unique } from "@/test/cli/admin";
import { cliFailure } from "../shared/run-cli";
import { ADMIN_HELP, runAdmin } from "./run-admin";

const { admin, adminWorld } = inProcessAdmin({ main: runAdmin, failure: (error) => cliFailure("admin", ADMIN_HELP, error) });

// `npm run admin -- notifications deliveries` (issue #39): the mail delivery
// log an operator reads when mail does not arrive. The rows are written here
// as the worker writes them (the worker itself is tested in
// e2e/api/notifications-mail.test.ts against a real SMTP server).

async function deliveriesOf(tenantId: string, poolId: string) {
  const db = await getDb();
  const at = (minute: number) => new Date(Date.UTC(2026, 11, 7, 9, minute));
  const base = { tenantId, poolId, nextAttemptAt: at(0) };
  const sent = await db.notificationDelivery.create({
    data: {
      ...base,
      deliveryKey: unique("k"),
      kind: "waiting",
      email: "ada@example.com",
      requestId: unique("jr"),
      status: "sent",
      attempts: 1,
      sentAt: at(1),
      lastAttemptAt: at(1),
      createdAt: at(0),
    },
  });
  const failing = await db.notificationDelivery.create({
    data: {
      ...base,
      deliveryKey: unique("k"),
      kind: "escalation",
      email: "oncall@example.com",
      requestId: unique("jr"),
      status: "pending",
      attempts: 3,
      lastAttemptAt: at(5),
      lastError: "451 4.3.0 try again later",
      createdAt: at(2),
    },
  });
  const digest = await db.notificationDelivery.create({
    data: {
      ...base,
      deliveryKey: unique("k"),
      kind: "digest",
      email: "Ada@Example.com",
      status: "dead",
      attempts: 10,
      lastError: "connect ECONNREFUSED",
      createdAt: at(3),
    },
  });
  await db.notificationDigestItem.createMany({
    data: [
      { userId: unique("u"), requestId: unique("jr"), deliveryId: digest.id },
      { userId: unique("u"), requestId: unique("jr"), deliveryId: digest.id },
    ],
  });
  return { sent, failing, digest };
}

describe("admin notifications deliveries", () => {
  it("lists a tenant's mails newest first with status, attempts and the last error; filters by status and address", async () => {
    const { tenantId, pools } = await adminWorld();
    const { sent, failing, digest } = await deliveriesOf(tenantId, pools[0]);
    const other = await adminWorld();
    await deliveriesOf(other.tenantId, other.pools[0]);

    const table = await admin(["notifications", "deliveries", "--tenant", tenantId]);
    expect(table.code).toBe(0);
    const lines = table.stdout.split("\n");
    expect(lines[0]).toMatch(/^ID\s+MADE\s+KIND\s+TO\s+ABOUT\s+STATUS\s+ATTEMPTS\s+LAST ATTEMPT\s+LAST ERROR$/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/)[0])).toEqual([digest.id, failing.id, sent.id].map(String));
    expect(lines[1]).toMatch(/digest\s+Ada@Example.com\s+2 requests\s+dead\s+10\s+—\s+connect ECONNREFUSED$/);
    expect(lines[2]).toContain("451 4.3.0 try again later");

    const pending = json<{ id: string; status: string; lastError: string }[]>(
      await admin(["notifications", "deliveries", "--tenant", tenantId, "--status", "pending", "--json"]),
    );
    expect(pending).toEqual([
      expect.objectContaining({ id: String(failing.id), status: "pending", lastError: "451 4.3.0 try again later" }),
    ]);
    const toAda = json<{ id: string }[]>(
      await admin(["notifications", "deliveries", "--tenant", tenantId, "--email", "ADA@example.com", "--json"]),
    );
    expect(toAda.map((entry) => entry.id)).toEqual([String(digest.id), String(sent.id)]);
  });

  it("pages with --limit and --before, and says where the older ones start", async () => {
    const { tenantId, pools } = await adminWorld();
    const { sent, failing, digest } = await deliveriesOf(tenantId, pools[0]);
    const first = await admin(["notifications", "deliveries", "--tenant", tenantId, "--limit", "2"]);
    expect(first.stdout.split("\n").at(-1)).toBe(`older: --before ${failing.id}`);
    expect(first.stdout).toContain(String(digest.id));
    const rest = json<{ id: string }[]>(
      await admin(["notifications", "deliveries", "--tenant", tenantId, "--before", String(failing.id), "--json"]),
    );
    expect(rest.map((entry) => entry.id)).toEqual([String(sent.id)]);
  });

  it("a tenant with none says so; a bad status, limit or cursor is exit 1 naming it; no tenant is a usage error", async () => {
    const { tenantId } = await adminWorld();
    expect((await admin(["notifications", "deliveries", "--tenant", tenantId])).stdout).toBe(`no notification deliveries in ${tenantId}`);
    expect(await admin(["notifications", "deliveries", "--tenant", tenantId, "--status", "lost"])).toMatchObject({
      code: 1,
      stderr: "admin failed: status: must be one of pending, sent, dead, not_configured",
    });
    expect((await admin(["notifications", "deliveries", "--tenant", tenantId, "--limit", "500"])).stderr).toMatch(/^admin failed: limit: /);
    expect((await admin(["notifications", "deliveries", "--tenant", tenantId, "--before", "x1"])).stderr).toBe(
      "admin failed: before: must be a delivery id (a positive integer)",
    );
    expect((await admin(["notifications", "deliveries"])).code).toBe(2);
  });
});
