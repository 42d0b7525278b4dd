import { describe, expect, it } from "vitest";
import { printUnsentMail } from "./print-unsent-mail";

describe("printUnsentMail", () => {
  it("prints the whole plain-text mail, its address and subject, and says it was not sent", () => {
    let printed = "";
    printUnsentMail(
      "ann@example.test",
      { subject: "Join request waiting: web-01", text: "Decide: http://localhost:3000/pools/p/requests/r\n", html: "<p>x</p>" },
      (text) => (printed += text),
    );
    expect(printed).toContain("Mail not sent (BC_SMTP_URL is not set): to ann@example.test");
    expect(printed).toContain("Subject: Join request waiting: web-01");
    expect(printed).toContain("Decide: http://localhost:3000/pools/p/requests/r");
    expect(printed).not.toContain("<p>");
  });
});
