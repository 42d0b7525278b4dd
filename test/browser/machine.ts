import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { makeKeyAndCsr } from "@/server/pki/make-csr";
import { x509 } from "@/server/pki/x509";
import { quoteOnWire, type SoftwareTpm } from "@/lib/tpm/software-tpm";

// The machine side of a join, run in the Playwright test process: a fresh
// key pair and a real CSR (the same helper the seed and the simulator use;
// it has no server-only import), and POST /api/compute/nodes/join as the
// node daemon calls it (SPEC B5).

/** The demo join token of pool gpu-b (SPEC Part C). */
export const GPU_B_JOIN_TOKEN = "bcjt_demogpub.demo-gpu-b-join-secret";
/** The demo join token of pool gpu-c, which requires 2 approvals (SPEC H1). */
export const GPU_C_JOIN_TOKEN = "bcjt_demogpuc.demo-gpu-c-join-secret";
/** SPEC I2's demo pool: TPM and a known boot required */
export const GPU_D_JOIN_TOKEN = "bcjt_demogpud.demo-gpu-d-join-secret";

export interface Machine {
  hostname: string;
  systemUuid: string;
  serialNumber: string;
  macAddresses: string[];
  csr: string;
  /** hex SHA-256 of the CSR's DER, as the request stores it */
  csrSha256: string;
  /** its TPM (SPEC F1): presents EK and AK, answers the join's challenge; none: no TPM */
  tpm?: SoftwareTpm;
}

/**
 * A machine no inventory knows (so `discovery` defers it), with real-looking,
 * non-placeholder identifiers, a random hostname and a fresh key pair + CSR.
 */
export async function makeMachine(label: string): Promise<Machine> {
  const n = randomBytes(4).toString("hex");
  const hostname = `e2e-${label}-${n}.fra1.acme.test`;
  const { csrPem } = await makeKeyAndCsr(hostname);
  return {
    hostname,
    // Version-4 UUID shape; the seeded inventory knows only 11111111-…
    systemUuid: `5e2e${n.slice(0, 4)}-7a11-4d10-8052-${n}${n.slice(0, 4)}`,
    serialNumber: `SN-RETRY-${n}`,
    macAddresses: [`02:5e:${n.slice(0, 2)}:${n.slice(2, 4)}:${n.slice(4, 6)}:${n.slice(6, 8)}`],
    csr: csrPem,
    csrSha256: createHash("sha256")
      .update(Buffer.from(new x509.Pkcs10CertificateRequest(csrPem).rawData))
      .digest("hex"),
  };
}

export interface JoinResponse {
  status: number;
  /** the response's x-request-id header (every response carries one, SPEC B3) */
  xRequestId: string | null;
  /** the parsed JSON, judged by the test */
  body: any;
}

/**
 * POST /api/compute/nodes/join with `token`, as the daemon does (and its
 * retries: same body, same CSR). A machine with a TPM answers a challenge
 * (SPEC F1) at once and joins again; the answer to that is returned.
 */
export async function join(baseURL: string, machine: Machine, token: string = GPU_B_JOIN_TOKEN): Promise<JoinResponse> {
  const tpm = machine.tpm ? { ekPublicKey: machine.tpm.ekPublicKeyPem, akPublic: machine.tpm.akPublic.toString("base64") } : null;
  const body = {
    csr: machine.csr,
    hostname: machine.hostname,
    hardware: { systemUuid: machine.systemUuid, serialNumber: machine.serialNumber, macAddresses: machine.macAddresses },
    tpm,
  };
  const first = await postJoin(baseURL, token, body);
  if (first.body?.status !== "challenge" || !machine.tpm || !tpm) return first;
  const { challengeId, credentialBlob, encryptedSecret } = first.body as {
    challengeId: string;
    credentialBlob: string;
    encryptedSecret: string;
  };
  const secret = machine.tpm.activateCredential(Buffer.from(credentialBlob, "base64"), Buffer.from(encryptedSecret, "base64"));
  const activation = { challengeId, secret: secret.toString("base64") };
  // SPEC I2: in a pool with boot states the challenge asks for a quote of its PCR selection over its nonce
  const { nonce, pcrSelection } = first.body as { nonce?: string; pcrSelection?: number[] };
  const quote = nonce && pcrSelection ? quoteOnWire(machine.tpm.quote({ nonce: Buffer.from(nonce, "base64"), pcrSelection })) : null;
  return postJoin(baseURL, token, { ...body, tpm: { ...tpm, activation, ...(quote ? { quote } : {}) } });
}

async function postJoin(baseURL: string, token: string, request: unknown): Promise<JoinResponse> {
  const response = await fetch(new URL("/api/compute/nodes/join", baseURL), {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(request),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, xRequestId: response.headers.get("x-request-id"), body };
}

/** A fresh machine's join with `token`, deferred (202): its pending request, which takes the pool's approvals required. */
export async function joinPending(baseURL: string, label: string, token: string): Promise<{ id: string; hostname: string }> {
  const machine = await makeMachine(label);
  const answer = await join(baseURL, machine, token);
  if (answer.status !== 202) throw new Error(`expected the join deferred (202), got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return { id: answer.body.requestId as string, hostname: machine.hostname };
}

/** What a node certificate says, checked against the machine's CSR and the CA that signed it. */
export async function readCertificate(certificatePem: string, caCertificatePem: string, machine: Machine) {
  const certificate = new x509.X509Certificate(certificatePem);
  const ca = new x509.X509Certificate(caCertificatePem);
  const csr = new x509.Pkcs10CertificateRequest(machine.csr);
  return {
    subject: certificate.subject,
    issuer: certificate.issuer,
    caSubject: ca.subject,
    signedByCa: await certificate.verify({ publicKey: ca.publicKey, signatureOnly: true }),
    /** the certificate certifies the machine's own key (the CSR's) */
    keyIsTheMachines: Buffer.from(certificate.publicKey.rawData).equals(Buffer.from(csr.publicKey.rawData)),
  };
}

let pool: pg.Pool | undefined;
function db(): pg.Pool {
  if (!process.env.DATABASE_URL) throw new Error("DATABASE_URL is not set: run through `npm test` or the Playwright global setup");
  pool ??= new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  return pool;
}

/** A join request as stored, with what the retry's consumption sets. */
export async function storedJoin(requestId: string) {
  const { rows } = await db().query(
    `SELECT state::text AS state, pool_id AS "poolId", hostname, csr_sha256 AS "csrSha256", reason,
       decided_at AS "decidedAt", consumed_at AS "consumedAt" FROM join_requests WHERE id = $1`,
    [requestId],
  );
  if (!rows[0]) throw new Error(`no join request ${requestId}`);
  return rows[0] as {
    state: string;
    poolId: string | null;
    hostname: string;
    csrSha256: string;
    reason: string | null;
    decidedAt: Date | null;
    consumedAt: Date | null;
  };
}

/** The nodes admitted with this CSR (at most one). */
export async function nodesWithCsr(csrSha256: string) {
  const { rows } = await db().query(
    `SELECT id, pool_id AS "poolId", hostname, join_request_id AS "joinRequestId", cert_serial AS "certSerial"
       FROM nodes WHERE csr_sha256 = $1`,
    [csrSha256],
  );
  return rows as { id: string; poolId: string; hostname: string; joinRequestId: string | null; certSerial: string }[];
}
