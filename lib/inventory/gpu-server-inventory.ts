import { createHash } from "node:crypto";

// What a GPU server's daemon reports (SPEC D3/D4): 8 GPUs, NVMe disks, two
// NICs, derived from the machine so every node reads differently and the
// same machine always reads the same. The demo seed, the simulator and the
// tests report these; `applyInventoryChange` makes the changes a fleet sees.

export const INVENTORY_CHANGES = ["driver", "gpu-removed", "gpu-replaced", "disk-added"] as const;
export type InventoryChange = (typeof INVENTORY_CHANGES)[number];

export interface GpuServerInventory {
  system: { vendor: string; product: string; serialNumber: string; systemUuid: string; biosVersion: string };
  cpu: { model: string; sockets: number; cores: number; threads: number };
  memory: { totalBytes: number };
  gpus: { index: number; vendor: string; model: string; uuid: string; memoryBytes: number; driverVersion: string }[];
  disks: { name: string; model: string; serialNumber: string; sizeBytes: number; kind: "nvme" | "ssd" | "hdd" }[];
  network: { name: string; mac: string; speedMbps: number }[];
  os: { name: string; version: string; kernel: string; arch: string };
  software: { name: string; version: string }[];
  [section: string]: unknown;
}

const hex = (seed: string, label: string, length: number) => createHash("sha256").update(`${seed}/${label}`).digest("hex").slice(0, length);
const gpuUuid = (seed: string, label: string) => {
  const h = hex(seed, label, 32);
  return `GPU-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

/** The inventory of the machine `machine.hostname` (and its UUID and serial, as the join reported them). */
export function gpuServerInventory(machine: { hostname: string; systemUuid: string; serialNumber: string }): GpuServerInventory {
  const seed = machine.hostname;
  const h100 = { vendor: "NVIDIA", model: "NVIDIA H100 80GB HBM3", memoryBytes: 85_520_809_984, driverVersion: "550.54.15" };
  return {
    system: {
      vendor: "Supermicro",
      product: "SYS-821GE-TNHR",
      serialNumber: machine.serialNumber,
      systemUuid: machine.systemUuid,
      biosVersion: "2.1a",
    },
    cpu: { model: "Intel(R) Xeon(R) Platinum 8480+", sockets: 2, cores: 112, threads: 224 },
    memory: { totalBytes: 2 * 1024 ** 4 },
    gpus: Array.from({ length: 8 }, (_, index) => ({ index, ...h100, uuid: gpuUuid(seed, `gpu${index}`) })),
    disks: [0, 1].map((index) => ({
      name: `nvme${index}n1`,
      model: "SAMSUNG MZWLO3T8HCLS-00A07",
      serialNumber: `S6${hex(seed, `disk${index}`, 10).toUpperCase()}`,
      sizeBytes: 3_840_755_982_336,
      kind: "nvme" as const,
    })),
    network: [
      { name: "eno1", mac: mac(seed, "eno1"), speedMbps: 25_000 },
      { name: "ibp26s0", mac: mac(seed, "ib0"), speedMbps: 400_000 },
    ],
    os: { name: "Ubuntu", version: "22.04.4 LTS", kernel: "5.15.0-105-generic", arch: "x86_64" },
    software: [
      { name: "nvidia-container-toolkit", version: "1.15.0" },
      { name: "containerd", version: "1.7.13" },
    ],
  };
}

function mac(seed: string, label: string): string {
  const h = hex(seed, label, 6);
  return `3c:ec:ef:${h.slice(0, 2)}:${h.slice(2, 4)}:${h.slice(4, 6)}`;
}

/** The inventory after `change`: a new copy, the input left as it was. */
export function applyInventoryChange(inventory: GpuServerInventory, change: InventoryChange): GpuServerInventory {
  const next = structuredClone(inventory);
  switch (change) {
    case "driver":
      next.gpus = next.gpus.map((gpu) => ({ ...gpu, driverVersion: "550.90.07" }));
      next.software = next.software.map((item) => (item.name === "nvidia-container-toolkit" ? { ...item, version: "1.16.1" } : item));
      break;
    case "gpu-removed":
      next.gpus = next.gpus.slice(0, -1);
      break;
    case "gpu-replaced": {
      const last = next.gpus.length - 1;
      next.gpus[last] = { ...next.gpus[last]!, uuid: gpuUuid(next.system.serialNumber, `replacement-${next.gpus[last]!.uuid}`) };
      break;
    }
    case "disk-added":
      next.disks = [
        ...next.disks,
        {
          name: `nvme${next.disks.length}n1`,
          model: "SAMSUNG MZWLO7T6HBLA-00A07",
          serialNumber: `S7${hex(next.system.serialNumber, `disk${next.disks.length}`, 10).toUpperCase()}`,
          sizeBytes: 7_681_501_126_656,
          kind: "nvme",
        },
      ];
      break;
  }
  return next;
}
