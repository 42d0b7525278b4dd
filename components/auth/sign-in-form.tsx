"use client";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import styles from "./sign-in.module.css";

const ERRORS: Record<string, string> = {
  CredentialsSignin: "Wrong email or password.",
  AccessDenied: "There is no console account for that identity (or its email is not verified). Ask an administrator to add you.",
  OidcNoEmail:
    "Your identity provider did not tell us your email address, so no console account can be matched. Ask its administrator to release the email claim to the console.",
  OidcEmailNotVerified:
    "Your identity provider has not verified your email address; only a verified email signs in here. Verify it with your provider, then try again.",
  OidcUnknownUser:
    "Your email is verified, but no console account (or only a disabled one) has it. Ask an administrator of your tenant to add you (npm run admin -- users create).",
  OAuthCallback: "Single sign-on could not be completed; try again.",
  Callback: "Single sign-on could not be completed; try again.",
  SessionRequired: "Please sign in to continue.",
};

const THROTTLED = /^SignInThrottled:(\d+)$/; // server/auth/sign-in-throttle.ts

/** What the page says for next-auth's error code (or our throttling message with its retry time). */
export function signInErrorMessage(code: string): string {
  const throttled = THROTTLED.exec(code);
  if (throttled) {
    const seconds = Number(throttled[1]);
    const wait = seconds < 90 ? `${seconds} seconds` : `${Math.ceil(seconds / 60)} minutes`;
    return `Too many failed sign-ins for this account or from this address. Try again in ${wait}.`;
  }
  return ERRORS[code] ?? "Sign-in failed; try again.";
}

export function SignInForm(props: {
  callbackUrl: string;
  error: string | null;
  oidc: boolean;
  demoAccounts: { email: string; name: string; role: string }[];
  demoPassword: string | null;
}) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(props.error ? signInErrorMessage(props.error) : null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(null);
    const result = await signIn("credentials", { email, password, redirect: false, callbackUrl: props.callbackUrl });
    if (result?.ok && !result.error) {
      window.location.assign(props.callbackUrl);
      return;
    }
    setPending(false);
    setError(signInErrorMessage(result?.error ?? ""));
  }

  return (
    <>
      <form onSubmit={onSubmit} className={styles.form} aria-describedby={error ? "signin-error" : undefined}>
        {error ? (
          <p id="signin-error" role="alert" className="alert">
            {error}
          </p>
        ) : null}
        <div className="field">
          <label htmlFor="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autoComplete="username"
            required
            className="input"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            className="input"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <button type="submit" className="button button-primary" disabled={pending}>
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      {props.oidc ? (
        <button type="button" className={`button ${styles.sso}`} onClick={() => signIn("oidc", { callbackUrl: props.callbackUrl })}>
          Sign in with single sign-on
        </button>
      ) : null}
      {props.demoAccounts.length > 0 ? (
        <section className={styles.demo} aria-labelledby="demo-accounts">
          <h2 id="demo-accounts">Demo accounts</h2>
          <p className="muted">
            The demo data is loaded. Every account&apos;s password is <code>{props.demoPassword}</code>.
          </p>
          <ul>
            {props.demoAccounts.map((account) => (
              <li key={account.email}>
                <button
                  type="button"
                  className="button button-small"
                  onClick={() => {
                    setEmail(account.email);
                    setPassword(props.demoPassword ?? "");
                  }}
                >
                  Use {account.email}
                </button>
                <span className="muted">{account.role}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
