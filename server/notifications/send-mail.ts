import "server-only";
import { createTransport, type Transporter } from "nodemailer";
import type { MailMessage } from "@/lib/notifications/mail-message";
import { smtpConnectionUrl } from "./smtp-connection-url";

export interface MailOutcome {
  ok: boolean;
  /** the SMTP server's last answer ("250 2.0.0 queued as …", "451 try later") when it gave one */
  response: string | null;
  /** why it failed (the answer, a timeout, a network error); null when ok */
  error: string | null;
  durationMs: number;
}

export type MailSender = (to: string, message: MailMessage) => Promise<MailOutcome>;

/**
 * One SMTP connection setup per worker (nodemailer's transport), and each
 * mail sent on its own: any answer but acceptance of the message is a
 * failure the worker retries. Every wait (connecting, the greeting, each
 * answer) is bounded by `timeoutMs`, so a stalled server holds a slot of the
 * worker, never anything else.
 */
export function smtpMailSender(input: { url: string; from: string; timeoutMs: number }): { send: MailSender; close: () => void } {
  // the URL's own parameters win over these (nodemailer merges them last)
  const transport: Transporter = createTransport({
    url: smtpConnectionUrl(input.url),
    connectionTimeout: input.timeoutMs,
    greetingTimeout: input.timeoutMs,
    socketTimeout: input.timeoutMs,
  });
  const send: MailSender = async (to, message) => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const info = await transport.sendMail({ from: input.from, to, subject: message.subject, text: message.text, html: message.html });
      const rejected = info.rejected.length > 0;
      return {
        ok: !rejected,
        response: String(info.response ?? ""),
        error: rejected ? `rejected: ${info.response}` : null,
        durationMs: elapsed(),
      };
    } catch (error) {
      const failure = error as { response?: string; code?: string; message?: string };
      const text = (failure.response ?? failure.message ?? failure.code ?? String(error)).slice(0, 300);
      return { ok: false, response: failure.response?.slice(0, 300) ?? null, error: text, durationMs: elapsed() };
    }
  };
  return { send, close: () => transport.close() };
}
