import { defineConfig } from "prisma/config";

// Prisma 7 reads the connection from here, not from schema.prisma. The CLI is
// only used for `prisma generate`; migrations are applied by scripts/db/migrate.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
