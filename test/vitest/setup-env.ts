import { randomBytes } from "node:crypto";
import { inject } from "vitest";

// Workers read the database the global setup provided, before any test
// imports the db client (projects without that setup provide none).
const databaseUrl = inject("databaseUrl");
if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
process.env.BC_LOG_LEVEL ??= "warn";
// The tests' webhook receivers listen on loopback over http.
process.env.BC_WEBHOOK_ALLOW_PRIVATE ??= "1";
// What an app process started by a test needs with DATABASE_URL (`npm test` sets both for the run).
process.env.NEXTAUTH_SECRET ??= randomBytes(32).toString("base64");
process.env.BC_CA_KEY_ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
