import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { getDb } from "@/server/db/client";
import { inProcessAdmin, json, unique } from "@/test/cli/admin";
import { cliFailure } from "../shared/run-cli";
import { ADMIN_HELP, runAdmin } from "./run-admin";

const { admin, adminWorld } = inProcessAdmin({ main: runAdmin, failure: (error) => cliFailure("admin", ADMIN_HELP, error) });

// `npm run admin -- discovery import|list|remove` and `tpm allow|list|remove`
// (SPEC E1, E3): manifests in CSV or JSON, all or nothing with every bad line
// named; the EK hash computed as the join's tpm attestor computes it.

const uuid = (n: number, tag: string) => `${tag}-0000-4000-8000-${String(n).padStart(12, "0")}`;
const mac = (n: number) => `52:54:00:aa:${String(Math.floor(n / 100) % 100).padStart(2, "0")}:${String(n % 100).padStart(2, "0")}`;
const tag = () => Math.random().toString(16).slice(2, 10).padEnd(8, "0");
const FIXTURE_EK = readFileSync("fixtures/tpm-ek-allowed.pem", "utf8");
const FIXTURE_EK_SHA256 = "15426fb055f5461484bf419f7e67ba400ddfc2b54d90981cb9f65f6ffc228af1";

describe("admin discovery", () => {
  it("imports a CSV manifest, then reports created / updated / unchanged on a second import; lists by prefix; removes", async () => {
    const { tenantId, siteId, pools } = await adminWorld();
    const t = tag();
    const csv = [
      "systemUuid,macAddresses,assignedPool",
      `${uuid(1, t).toUpperCase()},${mac(1)},`,
      `${uuid(2, t)},"${mac(2)} ${mac(3)}",${pools[0]}`,
      `${uuid(3, t)},${mac(4)};${mac(5)},`,
    ].join("\n");
    const site = ["--tenant", tenantId, "--site", siteId];
    const first = await admin(["discovery", "import", ...site, "--file", "rack.csv"], { files: { "rack.csv": csv } });
    expect(first).toMatchObject({ code: 0, stdout: `imported into ${tenantId}/${siteId}: 3 created, 0 updated, 0 unchanged` });

    const changed = csv.replace(`${mac(4)};${mac(5)},`, `${mac(4)},${pools[1]}`);
    const second = json(await admin(["discovery", "import", ...site, "--file", "rack.csv", "--json"], { files: { "rack.csv": changed } }));
    expect(second).toEqual({ created: 0, updated: 1, unchanged: 2 });

    const rows = await (await getDb()).discoveredMachine.findMany({ where: { siteId }, orderBy: { systemUuid: "asc" } });
    expect(rows.map((row) => [row.systemUuid, row.macAddresses, row.assignedPoolId])).toEqual([
      [uuid(1, t), [mac(1)], null],
      [uuid(2, t), [mac(2), mac(3)], pools[0]],
      [uuid(3, t), [mac(4)], pools[1]],
    ]);
    const byMac = json<{ machines: { systemUuid: string }[] }>(
      await admin(["discovery", "list", ...site, "--query", mac(2).toUpperCase(), "--json"]),
    );
    expect(byMac.machines.map((machine) => machine.systemUuid)).toEqual([uuid(2, t)]);
    const paged = await admin(["discovery", "list", ...site, "--limit", "2"]);
    expect(paged.stdout.split("\n")[0]).toMatch(/^SYSTEM UUID\s+MACS\s+POOL\s+ADDED$/);
    expect(paged.stdout).toContain(`more: --cursor ${uuid(2, t)}`);

    const removed = await admin(["discovery", "remove", ...site, "--uuid", `${uuid(1, t)},${uuid(9, t)}`]);
    expect(removed.stdout).toBe(`removed 1 of 2 from ${tenantId}/${siteId}`);
    const events = await (await getDb()).event.findMany({ where: { siteId, type: "compute.discovery.changed" }, orderBy: { id: "asc" } });
    expect(events.map((event) => (event.data as { verb: string }).verb)).toEqual(["upsert", "upsert", "remove"]);
    expect(events[1]!.data).toMatchObject({ updated: "1", unchanged: "2", actor: expect.stringMatching(/^cli:/) });
  });

  it("imports nothing when any line is bad, and names every bad line by number", async () => {
    const { tenantId, siteId } = await adminWorld();
    const t = tag();
    const csv = [
      "systemUuid,macAddresses,assignedPool",
      `${uuid(1, t)},${mac(1)},`,
      `not-a-uuid,${mac(2)},`,
      `${uuid(3, t)},zz:zz,`,
      `${uuid(1, t)},${mac(4)},`,
    ].join("\n");
    const run = await admin(["discovery", "import", "--tenant", tenantId, "--site", siteId, "--file", "bad.csv"], {
      files: { "bad.csv": csv },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("nothing imported: 3 bad entries");
    expect(run.stderr).toContain("line 3: systemUuid: must be a UUID");
    expect(run.stderr).toContain("line 4: macAddresses.0: must be a MAC address like aa:bb:cc:dd:ee:ff");
    expect(run.stderr).toContain(`line 5: systemUuid ${uuid(1, t)} is already on line 2`);
    expect(run.stderr.split("\n")).toHaveLength(1);
    expect(await (await getDb()).discoveredMachine.count({ where: { siteId } })).toBe(0);
  });

  it("imports JSON too; an unknown pool or a pool of another site fails the whole import", async () => {
    const { tenantId, siteId, pools } = await adminWorld();
    const other = await adminWorld();
    const t = tag();
    const site = ["--tenant", tenantId, "--site", siteId, "--file", "m.json"];
    const good = JSON.stringify([
      { systemUuid: uuid(1, t), macAddresses: [mac(1)], assignedPool: pools[0] },
      { systemUuid: uuid(2, t), macAddresses: [mac(2)] },
    ]);
    expect((await admin(["discovery", "import", ...site], { files: { "m.json": good } })).stdout).toMatch(/2 created/);
    const foreign = JSON.stringify({ machines: [{ systemUuid: uuid(3, t), macAddresses: [mac(3)], assignedPool: other.pools[0] }] });
    expect(await admin(["discovery", "import", ...site], { files: { "m.json": foreign } })).toMatchObject({
      code: 1,
      stderr: `admin failed: assignedPoolId: ${other.pools[0]} is not a pool of site ${siteId}`,
    });
    const extra = JSON.stringify([{ systemUuid: uuid(4, t), macAddresses: [mac(4)], rack: "r1" }, "oops"]);
    const refused = await admin(["discovery", "import", ...site], { files: { "m.json": extra } });
    expect(refused.stderr).toContain("entry 1: rack: is not a known field");
    expect(refused.stderr).toContain("entry 2: systemUuid: must be a UUID");
    expect(await (await getDb()).discoveredMachine.count({ where: { siteId } })).toBe(2);
    expect((await admin(["discovery", "import", "--tenant", tenantId, "--site", siteId])).code).toBe(2);
  });
});

describe("admin tpm", () => {
  it("allows an EK from its PEM (the join's hash) or by hash, idempotently; lists; removes", async () => {
    const { tenantId } = await adminWorld();
    const base = ["--tenant", tenantId];
    const fromPem = await admin(["tpm", "allow", ...base, "--ek-pem", "ek.pem", "--note", "rack 7"], { files: { "ek.pem": FIXTURE_EK } });
    expect(fromPem.stdout).toBe(`created: endorsement key ${FIXTURE_EK_SHA256} allowed in ${tenantId}`);
    expect((await admin(["tpm", "allow", ...base, "--sha256", FIXTURE_EK_SHA256.toUpperCase()])).stdout).toMatch(/unchanged/);
    const other = "ab".repeat(32);
    expect((await admin(["tpm", "allow", ...base, "--sha256", other])).code).toBe(0);
    const listed = json<{ keys: { ekSha256: string; note: string }[] }>(await admin(["tpm", "list", ...base, "--json"]));
    expect(listed.keys).toEqual(
      [
        expect.objectContaining({ ekSha256: FIXTURE_EK_SHA256, note: "rack 7" }),
        expect.objectContaining({ ekSha256: other, note: "" }),
      ].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1)),
    );
    expect((await admin(["tpm", "remove", ...base, "--sha256", other])).stdout).toBe(`removed ${other} from ${tenantId}'s allow-list`);
    expect((await admin(["tpm", "remove", ...base, "--sha256", other])).stdout).toBe("it was not on the allow-list; nothing changed");
    const events = await (await getDb()).event.findMany({ where: { tenantId, type: "compute.tpm-allow-list.changed" } });
    expect(events).toHaveLength(3);
  });

  it("refuses a non-PEM key, a bad hash, both or neither of --ek-pem and --sha256, an unknown tenant", async () => {
    const { tenantId } = await adminWorld();
    expect(await admin(["tpm", "allow", "--tenant", tenantId, "--ek-pem", "x.pem"], { files: { "x.pem": "hello" } })).toMatchObject({
      code: 1,
      stderr: "admin failed: ekPublicKey: is not a PEM PUBLIC KEY",
    });
    expect(await admin(["tpm", "allow", "--tenant", tenantId, "--sha256", "abc"])).toMatchObject({
      code: 1,
      stderr: "admin failed: ekSha256: must be 64 hexadecimal digits (SHA-256)",
    });
    expect((await admin(["tpm", "allow", "--tenant", tenantId])).code).toBe(2);
    expect((await admin(["tpm", "allow", "--tenant", tenantId, "--sha256", "ab".repeat(32), "--ek-pem", "x"])).code).toBe(2);
    expect((await admin(["tpm", "allow", "--tenant", unique("nobody"), "--sha256", "ab".repeat(32)])).code).toBe(1);
  });

  it("reads --ek-pem as one PUBLIC KEY block, like the join (SPEC G1): two blocks, another label or trailing text allow nothing", async () => {
    const { tenantId } = await adminWorld();
    const asX509 = FIXTURE_EK.replaceAll("PUBLIC KEY", "X509 PUBLIC KEY");
    const files = { "two.pem": asX509 + FIXTURE_EK, "label.pem": asX509, "trailing.pem": `${FIXTURE_EK}trailing` };
    const refusals: [string, string][] = [
      ["two.pem", "admin failed: ekPublicKey: holds 2 PEM blocks; send exactly one PUBLIC KEY"],
      ["label.pem", "admin failed: ekPublicKey: is a PEM X509 PUBLIC KEY; send a PEM PUBLIC KEY"],
      ["trailing.pem", "admin failed: ekPublicKey: must be one PEM PUBLIC KEY block with nothing but whitespace around it"],
    ];
    for (const [file, stderr] of refusals) {
      expect(await admin(["tpm", "allow", "--tenant", tenantId, "--ek-pem", file], { files })).toMatchObject({ code: 1, stderr });
    }
    expect(await (await getDb()).tpmAllowedKey.count({ where: { tenantId } })).toBe(0);
  });
});
