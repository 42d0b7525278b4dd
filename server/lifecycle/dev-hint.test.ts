import { describe, expect, it } from "vitest";
import { devHint } from "./dev-hint";

// Issue 15 item 7: `next dev` sets PORT to the port it listens on (3001 when
// 3000 is taken) before it registers the instrumentation that prints this.
describe("npm run dev's first-start hint", () => {
  it("names the port the server got, in the console's address and in the curl", () => {
    const hint = devHint({ PORT: "3001" });
    expect(hint).toContain("Console: http://localhost:3001 ");
    expect(hint).toContain("curl -s -X POST http://localhost:3001/api/compute/joinRequests/list");
    expect(hint).not.toContain("3000");
  });

  it("3000 when no port was set (next dev's default)", () => {
    expect(devHint({})).toContain("http://localhost:3000/api/compute/joinRequests/list");
  });
});
