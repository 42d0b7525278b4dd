import { describe, expect, it } from "vitest";
import { mailConfigured } from "./mail-configured";

describe("mailConfigured", () => {
  it("is true only when BC_SMTP_URL names something", () => {
    expect(mailConfigured({ BC_SMTP_URL: "smtp://127.0.0.1:2525/?requireTLS=false&ignoreTLS=true" })).toBe(true);
    expect(mailConfigured({ BC_SMTP_URL: undefined })).toBe(false);
    // `BC_SMTP_URL=` in a compose file means off, as for BC_METRICS_TOKEN
    expect(mailConfigured({ BC_SMTP_URL: "" })).toBe(false);
    expect(mailConfigured({ BC_SMTP_URL: "  " })).toBe(false);
  });
});
