import { describe, expect, it } from "vitest";
import { applyInventoryChange, gpuServerInventory } from "./gpu-server-inventory";
import { diffSections } from "./snapshot-diff";

const base = gpuServerInventory({ hostname: "h.test", systemUuid: "u", serialNumber: "s" });

describe("diffSections", () => {
  it("a driver upgrade: every GPU's driverVersion changed, old → new", () => {
    const changes = diffSections(base, applyInventoryChange(base, "driver"));
    const drivers = changes.filter((change) => change.path.endsWith("driverVersion"));
    expect(drivers).toHaveLength(8);
    expect(drivers[0]).toEqual({ kind: "changed", path: "gpus.0.driverVersion", before: "550.54.15", after: "550.90.07" });
    expect(changes).toContainEqual({ kind: "changed", path: "software.0.version", before: "1.15.0", after: "1.16.1" });
  });

  it("a replaced GPU, a removed GPU, an added disk and a new section", () => {
    const replaced = applyInventoryChange(base, "gpu-replaced");
    expect(diffSections(base, replaced)).toEqual([
      { kind: "changed", path: "gpus.7.uuid", before: base.gpus[7]!.uuid, after: replaced.gpus[7]!.uuid },
    ]);
    expect(diffSections(base, applyInventoryChange(base, "gpu-removed"))).toEqual([
      { kind: "removed", path: "gpus.7", before: base.gpus[7] },
    ]);
    const added = applyInventoryChange(base, "disk-added");
    expect(diffSections(base, added)).toEqual([{ kind: "added", path: "disks.2", after: added.disks[2] }]);
    expect(diffSections(base, { ...base, rack: { row: "B" } })).toEqual([{ kind: "added", path: "rack", after: { row: "B" } }]);
    expect(diffSections(base, base)).toEqual([]);
  });
});
