import { NavLink } from "@/components/ui/nav-link";
import { SignOutButton } from "./sign-out-button";
import styles from "./console-header.module.css";

export function ConsoleHeader({ email }: { email: string }) {
  return (
    <header className={styles.header}>
      <NavLink href="/" className={styles.brand}>
        <span className={styles.mark} aria-hidden="true" />
        Better Compute · join requests
      </NavLink>
      <div className={styles.user}>
        <NavLink href="/webhooks">Webhooks</NavLink>
        <NavLink href="/settings/notifications">Notifications</NavLink>
        <span data-testid="signed-in-as">{email}</span>
        <SignOutButton />
      </div>
    </header>
  );
}
