import { describe, expect, it } from "vitest";
import { digestMessage } from "./digest-message";
import { escalationMessage } from "./escalation-message";
import type { RequestSummary } from "./mail-message";
import { outcomeMessage } from "./outcome-message";
import { waitingMessage } from "./waiting-message";

const now = new Date("2026-12-06T12:00:00Z");
const request = (over: Partial<RequestSummary> = {}): RequestSummary => ({
  requestId: "jreq_1",
  hostname: "web-01.example",
  serialNumber: "SN-42",
  reasons: ["unknown-to-discovery", "tpm-unproven"],
  poolName: "Production",
  createdAt: new Date("2026-12-06T11:48:00Z"),
  state: "pending",
  approvedBy: [],
  approvalsRequired: 2,
  link: "https://console.example/pools/p1/requests/jreq_1",
  ...over,
});

describe("waitingMessage", () => {
  it("says what waits, where, how long, who approved and how many are needed, with the link, in text and HTML", () => {
    const mail = waitingMessage(request({ approvedBy: ["ann@example.test"] }), now);
    expect(mail.subject).toBe("Join request waiting: web-01.example in Production");
    for (const part of [mail.text, mail.html]) {
      expect(part).toContain("web-01.example");
      expect(part).toContain("SN-42");
      expect(part).toContain("unknown-to-discovery, tpm-unproven");
      expect(part).toContain("12 min");
      expect(part).toContain("1 of 2 approvals (ann@example.test)");
      expect(part).toContain("https://console.example/pools/p1/requests/jreq_1");
    }
  });

  it("no remote images, no scripts, no style sheets: inline styles only, and the one link is the console's own", () => {
    const { html } = waitingMessage(request(), now);
    expect(html).not.toMatch(/<img|<script|<style|<link|url\(/i);
    expect([...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1])).toEqual(["https://console.example/pools/p1/requests/jreq_1"]);
  });

  it("attack: a hostname carrying markup comes out escaped, never as markup", () => {
    const hostile = `"><img src=x onerror=alert(1)><script>alert(2)</script>`;
    const mail = waitingMessage(request({ hostname: hostile, serialNumber: "<b>x</b>" }), now);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<img");
    expect(mail.html).not.toContain("<b>x</b>");
    expect(mail.html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(mail.subject).not.toContain("\n");
  });

  it("a hostname with line breaks cannot add lines to the subject", () => {
    expect(waitingMessage(request({ hostname: "a\r\nBcc: x@evil.test" }), now).subject).toBe(
      "Join request waiting: a Bcc: x@evil.test in Production",
    );
  });
});

describe("outcomeMessage", () => {
  it("says how a request the reader approved ended, by whom and why", () => {
    const mail = outcomeMessage(request(), { outcome: "rejected", decidedBy: "bob@example.test", reason: "unknown serial" });
    expect(mail.subject).toBe("Join request rejected: web-01.example in Production");
    expect(mail.text).toContain("which you approved, was rejected");
    expect(mail.text).toContain("Decided by: bob@example.test");
    expect(mail.html).toContain("unknown serial");
    expect(outcomeMessage(request(), { outcome: "expired", decidedBy: null, reason: null }).text).toContain("expired undecided");
  });
});

describe("digestMessage", () => {
  it("lists each request once, oldest first, with its state now", () => {
    const older = request({ requestId: "jreq_0", hostname: "old.example", createdAt: new Date("2026-12-06T11:46:00Z"), state: "approved" });
    const mail = digestMessage([request(), older], { start: new Date("2026-12-06T11:45:00Z"), end: new Date("2026-12-06T12:00:00Z") }, now);
    expect(mail.subject).toBe("Digest: 2 join requests, 1 still waiting");
    expect(mail.text.indexOf("old.example")).toBeLessThan(mail.text.indexOf("web-01.example"));
    expect(mail.text).toContain("now approved");
    expect(mail.text.match(/web-01\.example/g)).toHaveLength(1);
  });

  it("attack: escapes hostnames in the HTML list", () => {
    const mail = digestMessage([request({ hostname: "<script>x</script>" })], { start: now, end: now }, now);
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).toContain("&lt;script&gt;x&lt;/script&gt;");
  });
});

describe("escalationMessage", () => {
  it("says the request is still undecided and for how long", () => {
    const mail = escalationMessage(request({ createdAt: new Date("2026-12-06T11:30:00Z") }), now);
    expect(mail.subject).toBe("Escalated: web-01.example has waited 30 min in Production");
    expect(mail.text).toContain("still undecided after 30 min");
    expect(mail.html).toContain("https://console.example/pools/p1/requests/jreq_1");
  });
});
