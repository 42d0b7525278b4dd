import "server-only";
import type { Db } from "../../db/client";
import { hostnameKeyOf, uuidKeyOf } from "./node-identity-keys";
import type { Attestor } from "./attestor";

// One active node per machine and per hostname in a tenant (SPEC F2, F3).
// A copied UUID or a taken name is not refused: a person decides, and the
// approval's consumption replaces the machine's earlier node.

async function activeNodeWith(db: Db, tenantId: string, key: { uuidKey: string } | { hostnameKey: string }): Promise<boolean> {
  const node = await db.node.findFirst({ where: { tenantId, state: "active", ...key }, select: { id: true } });
  return node !== null;
}

export const activeMachineAttestor: Attestor = {
  name: "active-machine",
  async attest(db, { tenantId, machine }) {
    const uuidKey = uuidKeyOf(machine.systemUuid);
    return uuidKey && (await activeNodeWith(db, tenantId, { uuidKey })) ? { defer: "machine-already-joined" } : {};
  },
};

export const activeHostnameAttestor: Attestor = {
  name: "active-hostname",
  async attest(db, { tenantId, machine }) {
    const taken = await activeNodeWith(db, tenantId, { hostnameKey: hostnameKeyOf(machine.hostname) });
    return taken ? { defer: "hostname-in-use" } : {};
  },
};
