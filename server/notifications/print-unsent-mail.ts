import type { MailMessage } from "@/lib/notifications/mail-message";

/**
 * Development without an SMTP server: the mail a newcomer's console would
 * have sent, printed whole (plain text) on stdout, so they see what the
 * notifications say and where their links go.
 */
export function printUnsentMail(
  to: string,
  message: MailMessage,
  write: (text: string) => void = (text) => process.stdout.write(text),
): void {
  const rule = "-".repeat(72);
  write(`${rule}\nMail not sent (BC_SMTP_URL is not set): to ${to}\nSubject: ${message.subject}\n\n${message.text}${rule}\n`);
}
