import { describe, expect, it } from "vitest";
import { gpuServerInventory, applyInventoryChange } from "@/lib/inventory/gpu-server-inventory";
import { certificateExpiresSoon, formatBytes, hardwareSummary, isStale, osSummary } from "./node-facts";

const now = new Date("2026-12-03T12:00:00Z");
const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

describe("node facts for the console", () => {
  it("stale after 15 minutes without a call, or never seen", () => {
    expect(isStale(minutesAgo(14), now)).toBe(false);
    expect(isStale(minutesAgo(16), now)).toBe(true);
    expect(isStale(null, now)).toBe(true);
  });

  it("a certificate warning inside 7 days", () => {
    expect(certificateExpiresSoon(new Date(now.getTime() + 6 * 86_400_000).toISOString(), now)).toBe(true);
    expect(certificateExpiresSoon(new Date(now.getTime() + 8 * 86_400_000).toISOString(), now)).toBe(false);
  });

  it("bytes in binary units", () => {
    expect(formatBytes(2 * 1024 ** 4)).toBe("2 TiB");
    expect(formatBytes(85_520_809_984)).toBe("79.6 GiB");
    expect(formatBytes(3_840_755_982_336)).toBe("3.5 TiB");
    expect(formatBytes(512)).toBe("512 B");
  });

  it("one line of hardware: GPUs by model, then memory; the OS", () => {
    const inventory = gpuServerInventory({ hostname: "h.test", systemUuid: "u", serialNumber: "s" });
    expect(hardwareSummary(inventory)).toBe("8 × NVIDIA H100 80GB HBM3 · 2 TiB RAM");
    expect(hardwareSummary(applyInventoryChange(inventory, "gpu-removed"))).toBe("7 × NVIDIA H100 80GB HBM3 · 2 TiB RAM");
    expect(hardwareSummary({ gpus: [{ model: "A" }, { model: "B" }, { model: "A" }] })).toBe("2 × A · 1 × B");
    expect(hardwareSummary({ custom: {} })).toBeNull();
    expect(hardwareSummary(null)).toBeNull();
    expect(osSummary(inventory)).toBe("Ubuntu 22.04.4 LTS");
    expect(osSummary({})).toBeNull();
  });
});
