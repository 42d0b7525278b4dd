import { describe, expect, it } from "vitest";
import { inventoryReportInput } from "./inventory";

const paths = (input: unknown) => {
  const result = inventoryReportInput.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
};

describe("inventory/report sections (D3)", () => {
  it("known sections with their listed fields, extra fields and unknown sections are kept as given", () => {
    const sections = {
      system: { vendor: "Supermicro", product: "SYS-421GE", serialNumber: "S1", systemUuid: "u", biosVersion: "2.1", chassis: "4U" },
      gpus: [{ index: 0, vendor: "NVIDIA", model: "H100", uuid: "GPU-1", memoryBytes: 85899345920, driverVersion: "550.54", mig: false }],
      disks: [{ name: "nvme0n1", kind: "nvme", sizeBytes: 3840755982336 }],
      "fan-speeds": { fan1: 4200 },
      firmware: [{ bmc: "1.2" }],
    };
    const parsed = inventoryReportInput.parse({ sections });
    expect(parsed.sections).toEqual(sections);
  });

  it.each([
    [{ cpu: { cores: "64" } }, "sections.cpu.cores: Invalid input: expected number, received string"],
    [{ gpus: [{ index: 0 }, { memoryBytes: -1 }] }, "sections.gpus.1.memoryBytes: Too small: expected number to be >=0"],
    [{ disks: [{ kind: "tape" }] }, 'sections.disks.0.kind: Invalid option: expected one of "nvme"|"ssd"|"hdd"'],
    [{ gpus: { index: 0 } }, "sections.gpus: Invalid input: expected array, received object"],
    [{ custom: "just a string" }, "sections.custom: must be a JSON object or array"],
    [{ Bad_Name: {} }, "sections.Bad_Name: section names match ^[a-z][a-z0-9-]{0,63}$"],
  ])("%j → names the path", (sections, message) => {
    expect(paths({ sections })).toContain(message);
  });

  it("at most 64 sections; the body is { sections } and nothing else", () => {
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`s${i}`, {}]));
    expect(paths({ sections: many })).toContain("sections: at most 64 sections, not 65");
    expect(paths({ sections: {}, extra: 1 })).toEqual([expect.stringMatching(/Unrecognized key: "extra"/)]);
    expect(paths({})).toEqual([expect.stringMatching(/^sections: /)]);
  });
});
