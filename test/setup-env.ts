import { inject } from "vitest";

// Workers read the database the global setup provided, before any test
// imports the db client.
process.env.DATABASE_URL = inject("databaseUrl");
process.env.BC_LOG_LEVEL ??= "warn";
