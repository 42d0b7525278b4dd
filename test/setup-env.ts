import { inject } from "vitest";

// Workers read the database the global setup provided, before any test
// imports the db client (projects without that setup provide none).
const databaseUrl = inject("databaseUrl");
if (databaseUrl) process.env.DATABASE_URL = databaseUrl;
process.env.BC_LOG_LEVEL ??= "warn";
// The tests' webhook receivers listen on loopback over http.
process.env.BC_WEBHOOK_ALLOW_PRIVATE ??= "1";
