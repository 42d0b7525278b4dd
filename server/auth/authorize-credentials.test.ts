import { randomBytes } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "../db/client";
import { newId } from "@/lib/ids";
import * as password from "./password";
import { authorizeCredentials } from "./authorize-credentials";

// SPEC G9: an unknown email costs what a known one does (one scrypt of the
// same cost, the same counts), on the test database. Timing is shown by what
// is computed rather than measured: on a shared machine a clock cannot tell
// one scrypt from none reliably, a count can.
vi.mock("./password", { spy: true });

const PASSWORD = "correct horse battery staple";

// Addresses of this run's own (a /24 of 10/8, a /64 of 2001:db8::/32): an
// address's count lives in the database for its window, and a run made
// within it on the same database must not meet the last run's.
const [b, c] = randomBytes(2);
const ipv4 = (n: number) => `10.${b}.${c}.${n}`;
// groups of four hex digits, the first not 0: as the key writes the address (no leading zeros to drop)
const group = () => (randomBytes(2).readUInt16BE() | 0x1000).toString(16);
const ipv6Prefix = `2001:db8:${group()}:${group()}`;

async function newUser(): Promise<string> {
  const email = `authorize-${randomBytes(4).toString("hex")}@example.test`;
  await (
    await getDb()
  ).user.create({ data: { id: newId("usr"), email, name: email, passwordHash: await password.hashPassword(PASSWORD) } });
  return email;
}

async function counts(email: string, address: string) {
  const rows = await (
    await getDb()
  ).rateLimit.findMany({
    where: { key: { in: [`signin-account-address:${address} ${email}`, `signin-address:${address}`] } },
    select: { key: true, points: true },
  });
  return Object.fromEntries(rows.map((row) => [row.key.split(":")[0], row.points]));
}

describe("authorizeCredentials", () => {
  it("an unknown email checks one password of the stored cost and is counted like a known one", async () => {
    const known = await newUser();
    const unknown = `nobody-${randomBytes(4).toString("hex")}@example.test`;
    const verify = vi.mocked(password.verifyPassword);
    const costs: string[] = [];
    for (const [email, address] of [
      [known, ipv4(1)],
      [unknown, ipv4(2)],
    ] as const) {
      verify.mockClear();
      expect(await authorizeCredentials(email, "guess", address)).toBeNull();
      expect(verify).toHaveBeenCalledTimes(1);
      costs.push(verify.mock.calls[0]![1].split(":").slice(0, 4).join(":"));
    }
    expect(costs[1]).toBe(costs[0]); // scrypt:N:r:p of the decoy is a real account's
    expect(await counts(unknown, ipv4(2))).toEqual(await counts(known, ipv4(1)));
    expect(await counts(known, ipv4(1))).toEqual({ "signin-account-address": 1, "signin-address": 1 });
  });

  it("a success clears that account's count at that address only", async () => {
    const email = await newUser();
    await authorizeCredentials(email, "guess", ipv4(3));
    await authorizeCredentials(email, "guess", ipv4(4));
    expect(await authorizeCredentials(` ${email.toUpperCase()} `, PASSWORD, ipv4(3))).toMatchObject({ email });
    expect(await counts(email, ipv4(3))).toEqual({ "signin-address": 1 });
    expect(await counts(email, ipv4(4))).toEqual({ "signin-account-address": 1, "signin-address": 1 });
  });

  it("counts an IPv6 client by its /64, which one subscriber holds whole", async () => {
    const email = `nobody-${randomBytes(4).toString("hex")}@example.test`;
    await authorizeCredentials(email, "guess", `${ipv6Prefix}::1`);
    await authorizeCredentials(email, "guess", `${ipv6Prefix}:ffff:1:2:3`);
    expect(await counts(email, `${ipv6Prefix}::/64`)).toEqual({ "signin-account-address": 2, "signin-address": 2 });
  });
});
