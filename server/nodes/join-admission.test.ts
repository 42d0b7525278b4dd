import { describe, expect, it } from "vitest";
import { inJoinTurn, joinTurns } from "./join-admission";

describe("inJoinTurn", () => {
  it("runs at most BC_JOIN_CONCURRENCY (4) joins at once and lets the others in by arrival", async () => {
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const joins = Array.from({ length: 10 }, (_, i) =>
      inJoinTurn(
        () =>
          new Promise<number>((resolve) => {
            started.push(i);
            finish[i] = () => resolve(i);
          }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual([0, 1, 2, 3]);
    expect(joinTurns()).toEqual({ running: 4, waiting: 6 });
    finish[2]!();
    await joins[2];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const i of [0, 1, 3, 4, 5, 6, 7, 8, 9]) {
      while (!finish[i]) await new Promise((resolve) => setTimeout(resolve, 1)); // its turn has not come yet
      finish[i]();
      await joins[i];
    }
    expect(await Promise.all(joins)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(joinTurns()).toEqual({ running: 0, waiting: 0 });
  });
});
