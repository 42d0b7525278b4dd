/**
 * Where the console shows a thing: one place for the paths that mail, chat
 * messages and the console's own links point at.
 */
const poolPath = (poolId: string) => `/pools/${encodeURIComponent(poolId)}`;

export const requestPagePath = (poolId: string, requestId: string) => `${poolPath(poolId)}/requests/${encodeURIComponent(requestId)}`;

export const nodePagePath = (poolId: string, nodeId: string) => `${poolPath(poolId)}/nodes/${encodeURIComponent(nodeId)}`;

/** The console is reached at NEXTAUTH_URL (its own origin, as sign-in knows it); a development default otherwise. */
export const DEVELOPMENT_CONSOLE_ORIGIN = "http://localhost:3000";

/** An absolute link into the console, for messages read outside it (mail, chat). */
export function consoleLink(consoleOrigin: string | undefined, path: string): string {
  return new URL(path, consoleOrigin ?? DEVELOPMENT_CONSOLE_ORIGIN).toString();
}
