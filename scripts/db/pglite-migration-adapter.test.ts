import { afterAll, describe, expect, it } from "vitest";
import { InMemoryPgliteMigrationAdapterFactory } from "./pglite-migration-adapter";

const databases = new InMemoryPgliteMigrationAdapterFactory();
afterAll(() => databases.close());

// `npm run db:diff` replays every committed migration on this shadow database.
describe("the shadow database of db:diff", () => {
  it("replays a -- bc:no-transaction migration statement by statement, as the migrator applies it", async () => {
    const shadow = await databases.connectToShadowDb();
    await shadow.executeScript("CREATE TABLE items (id int, value int);");
    await expect(
      shadow.executeScript(
        "-- bc:no-transaction\nDROP INDEX CONCURRENTLY IF EXISTS items_value_idx;\nCREATE INDEX CONCURRENTLY IF NOT EXISTS items_value_idx ON items (value);\n",
      ),
    ).resolves.toBeUndefined();
  });

  it("runs an unmarked file as one script, where CONCURRENTLY is refused", async () => {
    const shadow = await databases.connectToShadowDb();
    await expect(
      shadow.executeScript("CREATE TABLE items (id int);\nCREATE INDEX CONCURRENTLY items_id_idx ON items (id);"),
    ).rejects.toThrow(/cannot run inside a transaction block/);
  });
});
