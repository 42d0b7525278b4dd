import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import styles from "@/components/auth/sign-in.module.css";
import { currentUser } from "@/server/auth/current-user";
import { nextAuthSecret } from "@/server/auth/nextauth-secret";
import { oidcConfigured } from "@/server/auth/next-auth-options";
import { listDemoAccounts } from "@/server/users/list-demo-accounts";
import { DEMO_PASSWORD } from "@/server/seed/demo-data";
import { sameOriginPath } from "@/lib/url/same-origin-path";

export const metadata = { title: "Sign in — Better Compute" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = sameOriginPath(params.callbackUrl);
  let configurationError: string | null = null;
  try {
    await nextAuthSecret();
  } catch (error) {
    configurationError = error instanceof Error ? error.message : String(error);
  }
  if (!configurationError && (await currentUser())) redirect(callbackUrl);
  const demoAccounts = await listDemoAccounts();

  return (
    <main className={styles.page}>
      <div className={`card ${styles.panel}`}>
        <h1>Sign in</h1>
        <p className="muted">Better Compute · join-request console</p>
        {configurationError ? (
          <p role="alert" className="alert">
            <strong>The console cannot sign anyone in yet.</strong> {configurationError}
          </p>
        ) : (
          <SignInForm
            callbackUrl={callbackUrl}
            error={typeof params.error === "string" ? params.error : null}
            oidc={oidcConfigured()}
            demoAccounts={demoAccounts}
            demoPassword={demoAccounts.length ? DEMO_PASSWORD : null}
          />
        )}
      </div>
    </main>
  );
}
