import "server-only";
import { randomBytes, timingSafeEqual } from "node:crypto";
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

// The address of the socket a request came in on, for per-address sign-in
// limits (SPEC G9). A route handler never sees the socket (next-auth's
// authorize gets the request's headers only), and Next fills X-Forwarded-For
// with the peer only when the client sent none, so a client could choose it.
// Node announces every request it parses on the `http.server.request.start`
// diagnostics channel before any listener sees it: there we write the peer
// into a header of our own, replacing whatever the client sent under that
// name, in every server of this process (`next start`, `next dev`, `npm
// start`'s app processes). The value carries a secret made at start, so that
// a request parsed before the subscription (Next listens before
// instrumentation runs) or in a process that never subscribed cannot pass a
// client's copy off as ours.

const HEADER = "x-bc-peer-address";
const STATE = Symbol.for("bc.peer-address"); // on globalThis: instrumentation and routes are separate bundles

interface State {
  secret: string;
}
type Holder = { [STATE]?: State };

function state(): State | undefined {
  return (globalThis as Holder)[STATE];
}

/** Once per process, before serving (instrumentation.ts): stamp every request with its socket's address. */
export function stampPeerAddresses(): void {
  if (state()) return; // a development reload: already subscribed
  const secret = randomBytes(24).toString("base64url");
  (globalThis as Holder)[STATE] = { secret };
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[HEADER] = `${secret} ${socket.remoteAddress ?? ""}`;
  });
}

/** The socket's address as stamped on these headers; null when they carry no stamp of this process. */
export function peerAddress(headers: Record<string, unknown>): string | null {
  const current = state();
  const value = headers[HEADER];
  if (!current || typeof value !== "string") return null;
  const space = value.indexOf(" ");
  if (space < 0 || !sameSecret(value.slice(0, space), current.secret)) return null;
  return value.slice(space + 1) || null;
}

function sameSecret(given: string, secret: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(secret)];
  return a.byteLength === b.byteLength && timingSafeEqual(a, b);
}
