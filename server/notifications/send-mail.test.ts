import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer, type TestSmtpServer } from "@/test/harness/smtp-server";
import { smtpMailSender } from "./send-mail";

// One mail through a real SMTP server on loopback (no STARTTLS offered).
const message = { subject: "Join request waiting: web-01", text: "Decide: http://localhost:3000/x\n", html: "<p>Decide</p>" };
let server: TestSmtpServer;
beforeAll(async () => {
  server = await startSmtpServer({
    onRecipient: (address) => (address.startsWith("full@") ? { code: 452, message: "4.2.2 mailbox full" } : "accept"),
  });
});
afterAll(async () => {
  await server?.close();
});

describe("smtpMailSender", () => {
  it("sends text and HTML from BC_SMTP_FROM and reports the server's answer", async () => {
    const sender = smtpMailSender({ url: server.url, from: "Better Compute <bc@mail.test>", timeoutMs: 5_000 });
    const outcome = await sender.send("ann@mail.test", message);
    sender.close();
    expect(outcome).toMatchObject({ ok: true, error: null });
    expect(outcome.response).toMatch(/^250/);
    const [mail] = server.to("ann@mail.test");
    expect(mail).toMatchObject({ from: "bc@mail.test", subject: message.subject, html: message.html });
    expect(mail!.text.trim()).toBe(message.text.trim());
  });

  it("a refusal is a failure carrying the server's reply", async () => {
    const sender = smtpMailSender({ url: server.url, from: "bc@mail.test", timeoutMs: 5_000 });
    const outcome = await sender.send("full@mail.test", message);
    sender.close();
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toContain("452");
  });

  it("attack: a plain smtp:// URL that does not opt out requires STARTTLS, so a server without it gets no mail", async () => {
    const plain = server.url.replace(/\/\?.*$/, "");
    const sender = smtpMailSender({ url: plain, from: "bc@mail.test", timeoutMs: 5_000 });
    const outcome = await sender.send("bob@mail.test", message);
    sender.close();
    expect(outcome.ok).toBe(false);
    // nodemailer insists on STARTTLS, which this server does not know: it answers 500 and nothing is sent
    expect(outcome.error).toMatch(/^500 /);
    expect(server.to("bob@mail.test")).toEqual([]);
  });

  it("an unreachable server is a failure, not a hang", async () => {
    const sender = smtpMailSender({ url: "smtp://127.0.0.1:1/?ignoreTLS=true", from: "bc@mail.test", timeoutMs: 2_000 });
    const outcome = await sender.send("ann@mail.test", message);
    sender.close();
    expect(outcome).toMatchObject({ ok: false, response: null });
    expect(outcome.error).toMatch(/ECONNREFUSED|connect/i);
  });
});
