// A node daemon attesting its boot again (SPEC I3), in TypeScript: ask
// nodes/attest for a nonce, quote it with the TPM (tpm2_quote, by the AK the
// join proved), send the quote, and do it again on a schedule.
// e2e/api/node-attest-swtpm.test.ts runs this file against a real server and
// a real TPM (swtpm), so the example cannot rot.
import { callAsNode, type NodeIdentity } from "./node-daemon";

/** nodes/attest's `quote`: TPMS_ATTEST and TPMT_SIGNATURE in base64, the PCR values in hex. */
export interface Quote {
  attest: string;
  signature: string;
  pcrs: Record<string, string>;
}

/** Makes a quote of `pcrSelection` (SHA-256 bank) with `nonce` as qualifying data. */
export type QuoteMaker = (nonce: Buffer, pcrSelection: number[]) => Promise<Quote>;

export interface Attestation {
  state: "trusted" | "untrusted" | "stale";
  at: string | null;
  bootState: string | null;
  pcrs: Record<string, string> | null;
  unmatchedPcrs: number[];
}

/** How tpm2-tools are run: `run` resolves with stdout (TPM2TOOLS_TCTI set for the machine's TPM), `read` reads a file they wrote. */
export interface TpmTools {
  run(command: string, args: string[]): Promise<string>;
  read(file: string): Promise<Buffer>;
}

/** tpm2_quote by the AK persisted at `akHandle` (what `tpm2_createak` + `tpm2_evictcontrol` made for the join). */
export function tpm2Quote(akHandle: string, tools: TpmTools): QuoteMaker {
  let n = 0;
  return async (nonce, pcrSelection) => {
    const base = `attest-${process.pid}-${(n += 1)}`;
    const stdout = await tools.run("tpm2_quote", [
      ...["-c", akHandle, "-q", nonce.toString("hex"), "-l", `sha256:${pcrSelection.join(",")}`, "-g", "sha256"],
      ...["-m", `${base}.msg`, "-s", `${base}.sig`, "-o", `${base}.pcrs`],
    ]);
    await tools.run("tpm2_flushcontext", ["-t"]); // no resource manager: the quote's session would stay loaded
    // tpm2_quote prints the values it quoted: "    7 : 0x3D45…"
    const pcrs = Object.fromEntries(
      [...stdout.matchAll(/^\s+(\d+)\s*:\s*0x([0-9A-Fa-f]{64})$/gm)].map(([, index, value]) => [index!, value!.toLowerCase()]),
    );
    const [attest, signature] = await Promise.all([tools.read(`${base}.msg`), tools.read(`${base}.sig`)]);
    return { attest: attest.toString("base64"), signature: signature.toString("base64"), pcrs };
  };
}

async function answerOf<T>(response: Response, step: string): Promise<T> {
  const body = await response.json();
  if (!response.ok) throw new Error(`nodes/attest (${step}): ${response.status} ${body?.error?.code}: ${body?.error?.message}`);
  return body as T;
}

/** Both steps once: the nonce, the quote, the node's attestation as the server recorded it. */
export async function attestOnce(baseUrl: string, node: NodeIdentity, makeQuote: QuoteMaker): Promise<Attestation> {
  const challenge = await answerOf<{ nonce: string; pcrSelection: number[] }>(
    await callAsNode(baseUrl, node, "nodes/attest", {}),
    "challenge",
  );
  const quote = await makeQuote(Buffer.from(challenge.nonce, "base64"), challenge.pcrSelection);
  return answerOf<Attestation>(await callAsNode(baseUrl, node, "nodes/attest", { quote }), "quote");
}

/**
 * Attests now and then `intervalMs` after each attestation ends (well inside
 * the server's BC_ATTESTATION_MAX_AGE_SECONDS, a day by default, or the node
 * reads stale; never two at once on one TPM); each result or error goes to
 * `report`. Returns a function that stops it.
 */
export function attestEvery(
  baseUrl: string,
  node: NodeIdentity,
  makeQuote: QuoteMaker,
  intervalMs: number,
  report: (outcome: Attestation | Error) => void,
): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const once = async () => {
    report(await attestOnce(baseUrl, node, makeQuote).catch((error: Error) => error));
    if (!stopped) timer = setTimeout(once, intervalMs);
  };
  void once();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

// e.g., on the machine (ak persisted at 0x81010002 during the join):
//   const tools = { run: (c, a) => promisify(execFile)(c, a, { cwd: dir }).then((r) => r.stdout), read: (f) => readFile(join(dir, f)) };
//   attestEvery("https://console.example", node, tpm2Quote("0x81010002", tools), 3_600_000, console.log);
