import listPage from "@/components/ui/list-page.module.css";
import { NavLink } from "@/components/ui/nav-link";

/** Said wherever a person chooses what they hear, while the deployment sends no mail at all. */
export function MailNotConfigured() {
  return (
    <p className={listPage.notice} role="note" data-testid="mail-not-configured">
      <strong>No mail server is configured: notifications are not sent.</strong> An operator sets <code>BC_SMTP_URL</code> (see{" "}
      <NavLink href="/docs/api/notifications">the notifications reference</NavLink>); your choices here are kept until then.
    </p>
  );
}
