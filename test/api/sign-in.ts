import { request } from "node:http";

// next-auth's credentials sign-in as the console's form makes it, over a real
// socket from a chosen loopback source address (Linux routes all of
// 127.0.0.0/8 to lo), so the server sees that address as its peer: the only
// way to test what the server counts, since any header is the client's to choose.

export interface SignInAttempt {
  /** the error code next-auth redirects with; null when signed in */
  error: string | null;
  signedIn: boolean;
  ms: number;
}

interface Answer {
  status: number;
  setCookies: string[];
  body: string;
}

function send(url: string, options: { method: string; from: string; headers: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: options.method, headers: options.headers, localAddress: options.from, agent: false },
      (answer) => {
        let body = "";
        answer.setEncoding("utf8");
        answer.on("data", (chunk: string) => (body += chunk));
        answer.on("end", () => resolve({ status: answer.statusCode ?? 0, setCookies: answer.headers["set-cookie"] ?? [], body }));
        answer.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

export async function signInFrom(
  baseUrl: string,
  attempt: { email: string; password: string; from: string; forwardedFor?: string },
): Promise<SignInAttempt> {
  const forwarded: Record<string, string> = attempt.forwardedFor ? { "x-forwarded-for": attempt.forwardedFor } : {};
  const csrf = await send(`${baseUrl}/api/auth/csrf`, { method: "GET", from: attempt.from, headers: forwarded });
  const cookie = csrf.setCookies.map((value) => value.split(";")[0]).join("; ");
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
  const body = new URLSearchParams({
    csrfToken,
    email: attempt.email,
    password: attempt.password,
    json: "true",
    callbackUrl: `${baseUrl}/`,
  });
  const started = Date.now();
  const answer = await send(`${baseUrl}/api/auth/callback/credentials`, {
    method: "POST",
    from: attempt.from,
    headers: { "content-type": "application/x-www-form-urlencoded", cookie, origin: baseUrl, ...forwarded },
    body: body.toString(),
  });
  const { url } = JSON.parse(answer.body) as { url: string };
  const signedIn = answer.setCookies.some((value) => value.startsWith("next-auth.session-token="));
  return { error: new URL(url).searchParams.get("error"), signedIn, ms: Date.now() - started };
}
