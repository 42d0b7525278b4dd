/**
 * The connection URL nodemailer is given: BC_SMTP_URL, with STARTTLS required
 * on a plain smtp:// URL unless the URL itself says otherwise (requireTLS or
 * ignoreTLS among its parameters). A mail with a decision link must not
 * cross the network in clear because a server stopped offering STARTTLS.
 */
export function smtpConnectionUrl(configured: string): string {
  const url = new URL(configured);
  const says = url.searchParams.has("requireTLS") || url.searchParams.has("ignoreTLS");
  if (url.protocol === "smtp:" && !says) url.searchParams.set("requireTLS", "true");
  return url.toString();
}

/** The URL without its password, for logs and errors. */
export function redactedSmtpUrl(configured: string): string {
  const url = new URL(configured);
  if (url.password) url.password = "redacted";
  return url.toString();
}
