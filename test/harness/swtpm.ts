import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandOnPath } from "./command-on-path";
import { promisify } from "node:util";

// A real software TPM 2.0 (swtpm) driven with tpm2-tools, for tests that must
// show our TypeScript agrees with a TPM (TOOLCHAIN.md). One per test file: its
// own ports and state directory. There is no resource manager, so every step
// flushes what it leaves loaded; the TPM holds only 3 transient objects.

const run = promisify(execFile);
const COMMANDS = [
  "swtpm",
  "tpm2_createek",
  "tpm2_createak",
  "tpm2_create",
  "tpm2_createprimary",
  "tpm2_activatecredential",
  "tpm2_makecredential",
  "tpm2_startauthsession",
  "tpm2_policysecret",
  "tpm2_flushcontext",
  "tpm2_evictcontrol",
];
const EK_HANDLES = { rsa: "0x81010001", ecc: "0x81010003" } as const;
const TOOLS_MAGIC = 0xbadcc0de;
export type EkType = keyof typeof EK_HANDLES;

export interface SwtpmAk {
  akPublic: Buffer;
  akName: Buffer;
  handle: string;
}

export interface Swtpm {
  /** A file in this TPM's directory, where tools run. */
  path(name: string): string;
  /** Runs a tpm2-tools command against this TPM, in its directory; resolves with stdout. */
  tool(command: string, args: string[]): Promise<string>;
  /** Creates the TCG default EK of that type (persistent) and returns its PEM. */
  createEk(type: EkType): Promise<string>;
  /** tpm2_createak under that EK (which must exist), made persistent: ECC P-256 ECDSA (the default) or RSA 2048 RSASSA, SHA-256. */
  createAk(ek?: EkType, type?: "ecc" | "rsa"): Promise<SwtpmAk>;
  /** TPM2B_PUBLIC of a restricted signing key made with tpm2_create without fixedTPM and fixedParent. */
  createMovableKey(): Promise<Buffer>;
  /** tpm2_activatecredential with both parts (with size prefixes); rejects when the TPM refuses. */
  activate(credentialBlob: Buffer, encryptedSecret: Buffer, options: { ak: SwtpmAk; ek?: EkType }): Promise<Buffer>;
  stop(): Promise<void>;
}

export function missingTpmCommands(): string[] {
  return COMMANDS.filter((command) => !commandOnPath(command));
}

/** tpm2-tools' credential file: magic and version 1 (BE uint32s), then TPM2B_ID_OBJECT and TPM2B_ENCRYPTED_SECRET. */
export function toolsCredentialFile(credentialBlob: Buffer, encryptedSecret: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(TOOLS_MAGIC, 0);
  header.writeUInt32BE(1, 4);
  return Buffer.concat([header, credentialBlob, encryptedSecret]);
}

export function parseToolsCredentialFile(file: Buffer): { credentialBlob: Buffer; encryptedSecret: Buffer } {
  if (file.readUInt32BE(0) !== TOOLS_MAGIC || file.readUInt32BE(4) !== 1) throw new Error("not a tpm2-tools credential file");
  const blobEnd = 8 + 2 + file.readUInt16BE(8);
  return { credentialBlob: file.subarray(8, blobEnd), encryptedSecret: file.subarray(blobEnd) };
}

/**
 * `manufacture`, when given, writes the TPM's initial state into the empty
 * state directory before swtpm starts on it (as `swtpm_setup` does for a TPM
 * with EK certificates: see ./swtpm-ek-certificates.ts).
 */
export async function startSwtpm({ manufacture }: { manufacture?: (stateDir: string) => Promise<void> } = {}): Promise<Swtpm> {
  const missing = missingTpmCommands();
  if (missing.length > 0) {
    throw new Error(`the TPM tests need a software TPM; missing ${missing.join(", ")}: apt-get install -y swtpm swtpm-tools tpm2-tools`);
  }
  const dir = await mkdtemp(join(tmpdir(), "swtpm-"));
  await manufacture?.(dir);
  const port = await launch(dir);
  const pid = Number((await readFile(join(dir, "swtpm.pid"), "utf8")).trim());
  const env = { ...process.env, TPM2TOOLS_TCTI: `swtpm:host=127.0.0.1,port=${port}` };
  const tool = async (command: string, args: string[]) => {
    try {
      return (await run(command, args, { cwd: dir, env })).stdout;
    } catch (error) {
      const stderr = (error as { stderr?: string }).stderr ?? "";
      throw new Error(`${command} ${args.join(" ")} failed: ${stderr.trim() || String(error)}`);
    }
  };
  const flushTransients = () => tool("tpm2_flushcontext", ["-t"]);
  let aks = 0;

  return {
    path: (name) => join(dir, name),
    tool,
    async createEk(type) {
      await tool("tpm2_createek", ["-c", EK_HANDLES[type], "-G", type, "-u", `ek-${type}.pem`, "-f", "pem"]);
      await flushTransients();
      return readFile(join(dir, `ek-${type}.pem`), "utf8");
    },
    async createAk(ek = "rsa", type = "ecc") {
      const n = (aks += 1);
      const handle = `0x${(0x81010010 + n).toString(16)}`;
      await tool("tpm2_createak", [
        "-C",
        EK_HANDLES[ek],
        "-c",
        `ak-${n}.ctx`,
        "-G",
        type,
        "-g",
        "sha256",
        "-s",
        type === "ecc" ? "ecdsa" : "rsassa",
        "-u",
        `ak-${n}.pub`,
        "-n",
        `ak-${n}.name`,
      ]);
      await flushTransients();
      await tool("tpm2_flushcontext", ["-s"]);
      await tool("tpm2_evictcontrol", ["-C", "o", "-c", `ak-${n}.ctx`, handle]);
      await flushTransients();
      return { akPublic: await readFile(join(dir, `ak-${n}.pub`)), akName: await readFile(join(dir, `ak-${n}.name`)), handle };
    },
    async createMovableKey() {
      await tool("tpm2_createprimary", ["-C", "o", "-c", "primary.ctx"]);
      try {
        await tool("tpm2_create", [
          "-C",
          "primary.ctx",
          "-G",
          "ecc256:ecdsa-sha256:null",
          "-a",
          "sensitivedataorigin|userwithauth|restricted|sign",
          "-u",
          "movable.pub",
          "-r",
          "movable.priv",
        ]);
      } finally {
        await flushTransients();
      }
      return readFile(join(dir, "movable.pub"));
    },
    async activate(credentialBlob, encryptedSecret, { ak, ek = "rsa" }) {
      await writeFile(join(dir, "cred.blob"), toolsCredentialFile(credentialBlob, encryptedSecret));
      await rm(join(dir, "out.bin"), { force: true });
      // The EK's auth is a policy: PolicySecret on the endorsement hierarchy.
      await tool("tpm2_startauthsession", ["--policy-session", "-S", "session.ctx"]);
      try {
        await tool("tpm2_policysecret", ["-S", "session.ctx", "-c", "e"]);
        await tool("tpm2_activatecredential", [
          "-c",
          ak.handle,
          "-C",
          EK_HANDLES[ek],
          "-i",
          "cred.blob",
          "-o",
          "out.bin",
          "-P",
          "session:session.ctx",
        ]);
      } finally {
        await tool("tpm2_flushcontext", ["session.ctx"]);
      }
      return readFile(join(dir, "out.bin"));
    },
    async stop() {
      signal(pid, "SIGTERM");
      // Wait for it to exit before removing its directory, so it cannot write its state into a removed path.
      for (let waited = 0; waited < 50 && signal(pid, 0); waited += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Whether the signal reached the process (0 only asks whether it still exists). */
function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  try {
    return process.kill(pid, name);
  } catch {
    return false;
  }
}

/**
 * Starts swtpm on two consecutive free ports (server, then control) and
 * returns the first. Another process may take a port between our check and
 * swtpm's bind, so a failed start is retried on other ports.
 */
async function launch(dir: string): Promise<number> {
  let failure = "no two consecutive free ports";
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const port = await listenOnce(0);
    if (
      port >= 65535 ||
      !(await listenOnce(port + 1).then(
        () => true,
        () => false,
      ))
    )
      continue;
    const args = [
      "socket",
      "--tpmstate",
      `dir=${dir}`,
      "--tpm2",
      "--server",
      `type=tcp,port=${port}`,
      "--ctrl",
      `type=tcp,port=${port + 1}`,
    ];
    try {
      // With --daemon, swtpm returns once it listens: tools can connect at once.
      await run("swtpm", [...args, "--flags", "not-need-init,startup-clear", "--daemon", "--pid", `file=${join(dir, "swtpm.pid")}`]);
      return port;
    } catch (error) {
      failure = (error as { stderr?: string }).stderr?.trim() || String(error);
    }
  }
  throw new Error(`swtpm did not start: ${failure}`);
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : port));
    });
  });
}
