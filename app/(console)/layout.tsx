import type { ReactNode } from "react";
import { requireUser } from "@/server/auth/current-user";
import { ConsoleHeader } from "@/components/console/console-header";
import { Providers } from "@/components/console/providers";
import styles from "./console.module.css";

// Every console page needs a signed-in user; pages check their own pool grants.
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const { user } = await requireUser("/");
  return (
    <Providers>
      <ConsoleHeader email={user.email} />
      <main className={styles.main}>{children}</main>
    </Providers>
  );
}
