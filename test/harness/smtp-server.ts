import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer, type SMTPServerAddress, type SMTPServerSession } from "smtp-server";

// A real SMTP server on loopback, in this process (smtp-server from npm), for
// tests of the mail the app sends: every accepted message parsed (mailparser),
// and a hook to refuse or slow down what a test chooses.

export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  parsed: ParsedMail;
}

/** What the server does with one recipient or one message: accept, or refuse with an SMTP code. */
export type SmtpAnswer = "accept" | { code: number; message: string };

export interface SmtpServerOptions {
  /** per recipient (RCPT TO) */
  onRecipient?: (address: string) => SmtpAnswer;
  /** per message, after its DATA; `delayMs` holds the answer that long */
  onMessage?: (to: string[]) => SmtpAnswer;
  delayMs?: () => number;
}

export interface TestSmtpServer {
  /** a BC_SMTP_URL that reaches it (plain, no STARTTLS: a loopback test server) */
  url: string;
  received: ReceivedMail[];
  /** recipients refused or messages answered with an error so far */
  refusals: number;
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

const refusal = (answer: { code: number; message: string }) => Object.assign(new Error(answer.message), { responseCode: answer.code });

export async function startSmtpServer(options: SmtpServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const state = { refusals: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session: SMTPServerSession, callback: (error?: Error) => void) {
      const answer = options.onRecipient?.(address.address) ?? "accept";
      if (answer === "accept") return callback();
      state.refusals++;
      callback(refusal(answer));
    },
    onData(stream, session, callback) {
      const to = session.envelope.rcptTo.map((address) => address.address);
      simpleParser(stream)
        .then(async (parsed) => {
          const delay = options.delayMs?.() ?? 0;
          if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
          const answer = options.onMessage?.(to) ?? "accept";
          if (answer !== "accept") {
            state.refusals++;
            return callback(refusal(answer));
          }
          received.push({
            to,
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
            parsed,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}/?requireTLS=false&ignoreTLS=true`,
    received,
    get refusals() {
      return state.refusals;
    },
    to: (address) => received.filter((mail) => mail.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
