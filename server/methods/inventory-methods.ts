import "server-only";
import { snapshotJson } from "@/lib/inventory/snapshot-json";
import { listInventoryResponse, reportInventoryResponse } from "@/lib/api/responses/inventory";
import { INVENTORY_REPORT_MAX_BYTES, inventoryReportInput } from "@/lib/validations/inventory";
import { getInventoryInput, listInventoryInput } from "@/lib/validations/nodes";
import { getSnapshot, listSnapshots } from "../inventory/read-snapshots";
import { reportInventory } from "../inventory/report-inventory";
import { authenticateReportingNode } from "../inventory/authenticate-reporting-node";
import { defineMachineMethod, defineNodeMethod } from "./define-method";

// SPEC D3: the node's inventory, reported by the daemon as its node, read by users and services.
const common = { phase: "v0.4", status: "registered", module: "server" } as const;

export const reportInventoryMethod = defineMachineMethod({
  ...common,
  name: "inventory/report",
  responses: { 200: reportInventoryResponse },
  kind: "mutation",
  summary: "The daemon reports its node's inventory; a new snapshot is stored only when the content changed.",
  description:
    "Up to 64 sections named like `gpus` or `os`, each an object or an array; known sections are validated, other sections and fields " +
    "are kept as given. The sections are canonicalised (RFC 8785) and hashed (SHA-256): the same content as the latest snapshot stores " +
    "nothing new and moves its `lastReportedAt`; any difference stores a snapshot with the sections that changed. Bodies up to 256 KiB; " +
    "JSON nested deeper than 32 levels inside `sections` is `INVALID_ARGUMENT` naming the path. A node stores at most 60 changed snapshots " +
    "in any hour: past that a changed report is `429 RESOURCE_EXHAUSTED` with `Retry-After` and stores nothing; an unchanged one is always taken.",
  publishes: ["compute.node.inventory-changed"],
  credentials: ["nodeJwt"],
  maxBodyBytes: INVENTORY_REPORT_MAX_BYTES,
  input: inventoryReportInput,
  authenticate: authenticateReportingNode,
  handler: ({ db, input, credential, now }) =>
    reportInventory({ db, node: credential, sections: input.sections, now, latest: credential.latest }),
});

export const getInventoryMethod = defineNodeMethod({
  ...common,
  name: "inventory/get",
  responses: { 200: snapshotJson },
  kind: "read",
  permission: "compute:nodes:read",
  resource: "compute-node",
  summary: "Returns the node's latest inventory snapshot, or the one `snapshotId` names.",
  description: "A node that has not reported yet, or a snapshot that is not the node's, is `NOT_FOUND`.",
  input: getInventoryInput,
  handler: ({ db, node, input }) => getSnapshot({ db, nodeId: node.id, snapshotId: input.snapshotId }),
});

export const listInventoryMethod = defineNodeMethod({
  ...common,
  name: "inventory/list",
  responses: { 200: listInventoryResponse },
  kind: "read",
  permission: "compute:nodes:read",
  resource: "compute-node",
  summary: "Lists the node's inventory history newest first, each snapshot with its sections.",
  description: "Pages hold up to 200 snapshots (50 by default); `cursor` is the `nextCursor` of the previous page.",
  input: listInventoryInput,
  handler: ({ db, node, input }) => listSnapshots({ db, nodeId: node.id, limit: input.limit, cursor: input.cursor }),
});
