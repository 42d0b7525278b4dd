import { describe, expect, it } from "vitest";
import { consoleLink, nodePagePath, requestPagePath } from "./console-paths";

describe("console paths", () => {
  it("names a request's and a node's page, escaping ids", () => {
    expect(requestPagePath("gpu-a", "jreq_1")).toBe("/pools/gpu-a/requests/jreq_1");
    expect(nodePagePath("gpu a", "node/1")).toBe("/pools/gpu%20a/nodes/node%2F1");
  });

  it("makes an absolute link on the console's origin, keeping a path prefix out of it", () => {
    expect(consoleLink("https://console.example", "/pools/a/requests/b")).toBe("https://console.example/pools/a/requests/b");
    expect(consoleLink(undefined, "/pools/a")).toBe("http://localhost:3000/pools/a");
  });
});
