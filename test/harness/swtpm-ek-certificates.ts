import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { commandOnPath } from "./command-on-path";

// A TPM manufactured the way a vendor ships one: `swtpm_setup --create-ek-cert`
// creates its EKs and has Debian's `swtpm_localca` sign a certificate for each
// (TCG EK profile: subject CN=unknown, critical subjectAltName directoryName
// with the manufacturer, model and version), written into the TPM's NV. The
// CA lives in a directory of the test's own (never /var/lib/swtpm-localca),
// made on first use: a root "swtpm-localca-rootca" and the issuing
// "swtpm-localca" under it.

const run = promisify(execFile);
const COMMANDS = ["swtpm_setup", "swtpm_localca", "tpm2_nvread", "tpm2_readpublic"];

/** NV indices of the EK certificates swtpm_setup 0.7 writes (TCG EK profile §2.2.1.5). */
export const EK_CERTIFICATE_NV_INDEX = {
  /** RSA 2048, low-range template (what `tpm2_createek -G rsa` recreates) */
  rsa: "0x1c00002",
  /** NIST P-384, swtpm 0.7's ECC EK (what `tpm2_createek -G ecc384` recreates), persistent at 0x81010016 */
  ecc: "0x1c00016",
} as const;

export interface LocalCa {
  /** Runs swtpm_setup into an empty state directory: EKs, their certificates, the SHA-256 PCR bank. */
  manufacture(stateDir: string): Promise<void>;
  /** The self-signed root (what a trust store holds). */
  rootPem(): Promise<string>;
  /** The issuing CA under the root (what a join sends as its chain). */
  issuerPem(): Promise<string>;
  remove(): Promise<void>;
}

export async function createLocalCa(): Promise<LocalCa> {
  const missing = COMMANDS.filter((command) => !commandOnPath(command));
  if (missing.length > 0) throw new Error(`EK certificate tests need ${missing.join(", ")}: apt-get install -y swtpm-tools tpm2-tools`);
  const dir = await mkdtemp(join(tmpdir(), "swtpm-localca-"));
  const ca = join(dir, "ca");
  await writeFile(
    join(dir, "localca.conf"),
    [`statedir = ${ca}`, `signingkey = ${ca}/signkey.pem`, `issuercert = ${ca}/issuercert.pem`, `certserial = ${ca}/certserial`, ""].join(
      "\n",
    ),
  );
  await writeFile(join(dir, "localca.options"), "--platform-manufacturer Test\n--platform-version 2.1\n--platform-model swtpm\n");
  await writeFile(
    join(dir, "swtpm_setup.conf"),
    [
      "create_certs_tool = /usr/bin/swtpm_localca",
      `create_certs_tool_config = ${dir}/localca.conf`,
      `create_certs_tool_options = ${dir}/localca.options`,
      "active_pcr_banks = sha256",
      "",
    ].join("\n"),
  );
  return {
    async manufacture(stateDir) {
      try {
        await run("swtpm_setup", [
          "--tpm2",
          "--tpmstate",
          stateDir,
          "--create-ek-cert",
          "--config",
          join(dir, "swtpm_setup.conf"),
          "--overwrite",
        ]);
      } catch (error) {
        throw new Error(`swtpm_setup failed: ${(error as { stderr?: string }).stderr?.trim() || String(error)}`);
      }
    },
    rootPem: () => readFile(join(ca, "swtpm-localca-rootca-cert.pem"), "utf8"),
    issuerPem: () => readFile(join(ca, "issuercert.pem"), "utf8"),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
