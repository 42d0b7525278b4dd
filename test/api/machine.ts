import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { inject } from "vitest";
import { getDb } from "@/server/db/client";
import { hashSecret } from "@/server/auth/credentials";
import { newId } from "@/lib/ids";
import { x509 } from "@/server/pki/x509";
import { makeEndorsementKeyPem, makeKeyAndCsr } from "@/server/pki/make-csr";
import { toApiResponse, type ApiResponse } from "./api-client";
import { expectDeclaredResponse } from "./declared-response";
import { createWorld, type World } from "./world";
import { quoteOnWire, SoftwareTpm } from "@/lib/tpm/software-tpm";

// Machines for the join tests: real key pairs and CSRs, the credentials they
// present, and a world with what the attestors read (a TPM pool, the site's
// inventory, the tenant's EK allow-list).

const suffix = () => randomBytes(4).toString("hex");

export const ALLOWED_EK_PEM = readFileSync(new URL("../../fixtures/tpm-ek-allowed.pem", import.meta.url), "utf8");
export const ALLOWED_EK_SHA256 = "15426fb055f5461484bf419f7e67ba400ddfc2b54d90981cb9f65f6ffc228af1";
/** SPEC F5: the demo EK pair (private half published); every join world allow-lists it. */
export const DEMO_EK_PRIVATE_KEY_PEM = readFileSync(new URL("../../fixtures/tpm-ek-demo.key.pem", import.meta.url), "utf8");
export const DEMO_EK_SHA256 = "23ecae7f12443c728490c84f0a0c06ce53314bb6fe6053c0a1b819cf4a7fd68e";

/** A software TPM with the allow-listed demo EK (SPEC F5). */
export const demoTpm = () => new SoftwareTpm({ ekPrivateKeyPem: DEMO_EK_PRIVATE_KEY_PEM });
/** A software TPM whose fresh RSA-2048 EK no allow-list knows. */
export const freshTpm = () => SoftwareTpm.withFreshEk();

export interface Machine {
  hostname: string;
  systemUuid: string;
  serialNumber: string;
  macAddresses: string[];
  /** PEM of an endorsement key the machine presents without an AK (it cannot prove it); null: none */
  ekPublicKey: string | null;
  /** a TPM that presents its EK and AK and can answer a challenge (SPEC F1) */
  tpm?: SoftwareTpm;
  csr: string;
}

export async function makeCsr(hostname: string): Promise<string> {
  return (await makeKeyAndCsr(hostname)).csrPem;
}

/** A fresh endorsement key no allow-list knows. */
export const unknownEkPem = makeEndorsementKeyPem;

/** A machine no inventory knows, with real-looking identifiers and a fresh CSR. */
export async function makeMachine(overrides: Partial<Machine> = {}): Promise<Machine> {
  const n = suffix();
  const hostname = overrides.hostname ?? `node-${n}.join.test`;
  return {
    hostname,
    systemUuid: `4c4c4544-${n.slice(0, 4)}-4d10-8052-${n}${n.slice(0, 4)}`,
    serialNumber: `SN-${n}`,
    macAddresses: [`3c:ec:ef:${n.slice(0, 2)}:${n.slice(2, 4)}:${n.slice(4, 6)}`],
    ekPublicKey: null,
    csr: overrides.csr ?? (await makeCsr(hostname)),
    ...overrides,
  };
}

export function joinBody(machine: Machine): Record<string, unknown> {
  return {
    csr: machine.csr,
    hostname: machine.hostname,
    hardware: { systemUuid: machine.systemUuid, serialNumber: machine.serialNumber, macAddresses: machine.macAddresses },
    tpm: machine.tpm
      ? { ekPublicKey: machine.tpm.ekPublicKeyPem, akPublic: machine.tpm.akPublic.toString("base64") }
      : machine.ekPublicKey
        ? { ekPublicKey: machine.ekPublicKey }
        : null,
  };
}

/** The second step of a TPM join: the same body with the secret the TPM recovered from `challenge` (SPEC F1). */
export function activatedBody(
  machine: Machine,
  challenge: { challengeId: string; credentialBlob: string; encryptedSecret: string },
  tpm = machine.tpm!,
) {
  const secret = tpm.activateCredential(Buffer.from(challenge.credentialBlob, "base64"), Buffer.from(challenge.encryptedSecret, "base64"));
  const body = joinBody(machine) as { csr: string; tpm: Record<string, unknown> };
  return { ...body, tpm: { ...body.tpm, activation: { challengeId: challenge.challengeId, secret: secret.toString("base64") } } };
}

/**
 * A join into a TPM pool as a daemon with a TPM makes it: the challenge (202),
 * then the activated join, with the quote the challenge asked for when the
 * pool holds boot states (SPEC I2).
 */
export async function joinThroughTpm(machine: Machine, bearer: string): Promise<{ challenge: ApiResponse; response: ApiResponse }> {
  const challenge = await join(machine, bearer);
  if (challenge.body?.status !== "challenge") throw new Error(`expected a challenge, got ${challenge.status} ${challenge.text}`);
  const body = activatedBody(machine, challenge.body);
  if (challenge.body.nonce) {
    const quoted = quoteOnWire(
      machine.tpm!.quote({ nonce: Buffer.from(challenge.body.nonce, "base64"), pcrSelection: challenge.body.pcrSelection }),
    );
    return { challenge, response: await join({ ...body, tpm: { ...body.tpm, quote: quoted } }, bearer) };
  }
  return { challenge, response: await join(body, bearer) };
}

/** POST /api/compute/nodes/join as the daemon does. */
export async function join(
  machineOrBody: Machine | Record<string, unknown>,
  bearer: string | null,
  options: { baseUrl?: string } = {},
): Promise<ApiResponse> {
  const body = "csr" in machineOrBody && "systemUuid" in machineOrBody ? joinBody(machineOrBody as Machine) : machineOrBody;
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const response = await fetch(`${options.baseUrl ?? inject("baseUrl")}/api/compute/nodes/join`, {
    method: "POST",
    headers,
    body: JSON.stringify(body),
  });
  const answer = await toApiResponse(response);
  expectDeclaredResponse("nodes/join", answer);
  return answer;
}

export async function createJoinTokenRow(
  tenantId: string,
  poolId: string,
  options: { maxUses?: number; expiresAt?: Date; revoked?: boolean; uses?: number } = {},
): Promise<string> {
  const db = await getDb();
  const id = `jt${suffix()}${suffix()}`;
  const secret = randomBytes(24).toString("base64url");
  await db.joinToken.create({
    data: {
      id,
      tenantId,
      poolId,
      secretHash: hashSecret(secret),
      maxUses: options.maxUses ?? 1000,
      uses: options.uses ?? 0,
      expiresAt: options.expiresAt ?? new Date(Date.now() + 3600_000),
      revokedAt: options.revoked ? new Date() : null,
      createdBy: "test",
    },
  });
  return `bcjt_${id}.${secret}`;
}

export async function createEnrollmentKeyRow(
  tenantId: string,
  siteId: string,
  options: { expiresAt?: Date; revoked?: boolean; maxUses?: number } = {},
) {
  const db = await getDb();
  const id = `se${suffix()}${suffix()}`;
  const secret = randomBytes(24).toString("base64url");
  await db.siteEnrollmentKey.create({
    data: {
      id,
      tenantId,
      siteId,
      secretHash: hashSecret(secret),
      maxUses: options.maxUses ?? 1000,
      expiresAt: options.expiresAt ?? null,
      revokedAt: options.revoked ? new Date() : null,
    },
  });
  return `bcse_${id}.${secret}`;
}

export interface JoinWorld extends World {
  /** requires TPM, in the world's site */
  tpmPoolId: string;
  tokens: { a: string; b: string; tpm: string; archived: string; otherSite: string };
  siteKey: string;
  /** inventory of the world's site: `known` is unassigned, `assignedToB` is assigned to pool b */
  inventory: { known: Machine; assignedToB: Machine };
}

/** Where each world's inventory entry lives, so knownMachine can add a sibling entry. */
const inventoryPlaces = new WeakMap<Machine, { tenantId: string; siteId: string; assignedPoolId: string | null }>();

/** createWorld, plus a TPM pool, join tokens, a site key, the site's inventory and the allowed EK. */
export async function createJoinWorld(): Promise<JoinWorld> {
  const world = await createWorld();
  const db = await getDb();
  const tpmPoolId = `ptpm-${suffix()}`;
  await db.pool.create({ data: { id: tpmPoolId, tenantId: world.tenantId, siteId: world.siteId, name: tpmPoolId, requiresTpm: true } });
  const known = await makeMachine();
  const assignedToB = await makeMachine();
  for (const [machine, assignedPoolId] of [
    [known, null],
    [assignedToB, world.pools.b],
  ] as const) {
    inventoryPlaces.set(machine, { tenantId: world.tenantId, siteId: world.siteId, assignedPoolId });
    await db.discoveredMachine.create({
      data: {
        id: newId("disc"),
        tenantId: world.tenantId,
        siteId: world.siteId,
        systemUuid: machine.systemUuid,
        macAddresses: machine.macAddresses,
        assignedPoolId,
      },
    });
  }
  await db.tpmAllowedKey.createMany({
    data: [ALLOWED_EK_SHA256, DEMO_EK_SHA256].map((ekSha256) => ({ id: newId("tpmk"), tenantId: world.tenantId, ekSha256 })),
  });
  const token = (poolId: string) => createJoinTokenRow(world.tenantId, poolId);
  return {
    ...world,
    tpmPoolId,
    tokens: {
      a: await token(world.pools.a),
      b: await token(world.pools.b),
      tpm: await token(tpmPoolId),
      archived: await token(world.pools.archived),
      otherSite: await token(world.pools.otherSite),
    },
    siteKey: await createEnrollmentKeyRow(world.tenantId, world.siteId),
    inventory: { known, assignedToB },
  };
}

/**
 * A machine the inventory knows, with its own fresh CSR. For a world's entry
 * it is a new machine of its own, entered in the same site (and assigned the
 * same pool), since one machine has one active node (SPEC F2); for any other
 * entry it is that machine (same UUID and MACs), re-imaged.
 */
export async function knownMachine(entry: Machine, overrides: Partial<Machine> = {}): Promise<Machine> {
  const place = inventoryPlaces.get(entry);
  if (!place) return makeMachine({ systemUuid: entry.systemUuid, macAddresses: entry.macAddresses, ...overrides });
  const machine = await makeMachine(overrides);
  const db = await getDb();
  await db.discoveredMachine.create({
    data: { id: newId("disc"), ...place, systemUuid: machine.systemUuid, macAddresses: machine.macAddresses },
  });
  return machine;
}

export async function storedNodes(csrSha256: string) {
  const db = await getDb();
  return db.node.findMany({ where: { csrSha256 } });
}

export async function requestsForCsr(csrSha256: string) {
  const db = await getDb();
  return db.joinRequest.findMany({ where: { csrSha256 }, orderBy: { id: "asc" } });
}

export function csrSha256(pem: string): string {
  return createHash("sha256")
    .update(Buffer.from(new x509.Pkcs10CertificateRequest(pem).rawData))
    .digest("hex");
}
