import { describe, expect, it } from "vitest";
import { digestWindow } from "./digest-window";

describe("digestWindow", () => {
  it("cuts 15-minute windows on UTC quarter hours: a time on a boundary starts the next one", () => {
    expect(digestWindow("digest_15m", new Date("2026-12-06T10:07:59.999Z"))).toEqual({
      start: new Date("2026-12-06T10:00:00.000Z"),
      end: new Date("2026-12-06T10:15:00.000Z"),
    });
    expect(digestWindow("digest_15m", new Date("2026-12-06T10:15:00.000Z")).start).toEqual(new Date("2026-12-06T10:15:00.000Z"));
    expect(digestWindow("digest_15m", new Date("2026-12-06T10:14:59.999Z")).end).toEqual(new Date("2026-12-06T10:15:00.000Z"));
  });

  it("cuts hourly windows on the UTC hour", () => {
    expect(digestWindow("hourly", new Date("2026-12-06T23:59:00Z"))).toEqual({
      start: new Date("2026-12-06T23:00:00Z"),
      end: new Date("2026-12-07T00:00:00Z"),
    });
  });
});

describe("digestKeyWindow", () => {
  it("reads back the window a digest's key names; other keys name none", async () => {
    const { digestKey, digestKeyWindow } = await import("./delivery-key");
    const window = digestWindow("hourly", new Date("2026-12-06T10:20:00Z"));
    expect(digestKeyWindow(digestKey("usr_1", "hourly", window.start))).toEqual(window);
    expect(digestKeyWindow("waiting:jreq_1:usr_1")).toBeNull();
    expect(digestKeyWindow("digest:usr_1:weekly:2026-12-06T10:00:00.000Z")).toBeNull();
  });
});
