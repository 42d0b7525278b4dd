import { describe, expect, it } from "vitest";
import { parseEnv } from "../env";
import { redactedSmtpUrl, smtpConnectionUrl } from "./smtp-connection-url";

describe("smtpConnectionUrl", () => {
  it("requires STARTTLS on smtp:// unless the URL says otherwise", () => {
    expect(smtpConnectionUrl("smtp://user:pw@mail.example:587")).toBe("smtp://user:pw@mail.example:587?requireTLS=true");
    expect(smtpConnectionUrl("smtp://127.0.0.1:2525/?requireTLS=false&ignoreTLS=true")).toBe(
      "smtp://127.0.0.1:2525/?requireTLS=false&ignoreTLS=true",
    );
    expect(smtpConnectionUrl("smtps://mail.example:465")).toBe("smtps://mail.example:465");
  });

  it("never shows the password", () => {
    expect(redactedSmtpUrl("smtp://user:secret@mail.example:587")).toBe("smtp://user:redacted@mail.example:587");
  });
});

describe("BC_SMTP_URL and BC_SMTP_FROM", () => {
  const refusal = (variables: Record<string, string>) => {
    try {
      parseEnv(variables);
    } catch (error) {
      return error;
    }
  };

  it("unset or empty: no SMTP server; a From by default", () => {
    expect(parseEnv({}).BC_SMTP_URL).toBeUndefined();
    expect(parseEnv({ BC_SMTP_URL: "" }).BC_SMTP_URL).toBeUndefined();
    expect(parseEnv({}).BC_SMTP_FROM).toBe("Better Compute <notifications@localhost>");
    expect(parseEnv({ BC_SMTP_URL: "smtps://u:p@mail.example:465", BC_SMTP_FROM: "ops@example.test" }).BC_SMTP_FROM).toBe(
      "ops@example.test",
    );
  });

  it.each(["http://mail.example", "mail.example:25", "smtp://"])("BC_SMTP_URL=%j is refused, naming the variable", (value) => {
    expect(refusal({ BC_SMTP_URL: value })).toMatchObject({ variable: "BC_SMTP_URL" });
  });

  it.each(["not an address", "a@b\r\nBcc: x@evil.test", "<>"])("BC_SMTP_FROM=%j is refused, naming the variable", (value) => {
    expect(refusal({ BC_SMTP_FROM: value })).toMatchObject({ variable: "BC_SMTP_FROM" });
  });
});
