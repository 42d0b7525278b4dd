import { generateKeyPairSync, randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseToolsCredentialFile, startSwtpm, type Swtpm, type SwtpmAk } from "@/test/harness/swtpm";
import { readEndorsementKey } from "./endorsement-key";
import { makeCredential } from "./make-credential";
import { attestationKeyProblems, encodeTpm2bPublic, parseTpm2bPublic, tpmName } from "./tpm2b-public";

// Our TPM2_MakeCredential and TPM2B_PUBLIC parsing against a real TPM 2.0
// (swtpm + tpm2-tools). Without swtpm installed these tests fail, never skip:
// they are the only proof that a real machine can answer our challenges.

let tpm: Swtpm;
let ek: { rsa: string; ecc: string };
let ak: SwtpmAk;

beforeAll(async () => {
  tpm = await startSwtpm();
  ek = { rsa: await tpm.createEk("rsa"), ecc: await tpm.createEk("ecc") };
  ak = await tpm.createAk("rsa");
});

afterAll(async () => {
  await tpm?.stop();
});

describe.each(["rsa", "ecc"] as const)("makeCredential for the swtpm's %s EK", (ekType) => {
  it("is activated by tpm2_activatecredential to exactly our secret", async () => {
    const secret = randomBytes(32);
    const made = makeCredential({
      ekPublicKey: readEndorsementKey(ek[ekType]),
      objectName: tpmName(parseTpm2bPublic(ak.akPublic)),
      secret,
    });
    expect(await tpm.activate(made.credentialBlob, made.encryptedSecret, { ak, ek: ekType })).toEqual(secret);
  });

  it("is refused by the TPM when made for another AK's Name", async () => {
    const otherName = tpmName(
      parseTpm2bPublic(encodeTpm2bPublic({ publicKey: generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey })),
    );
    const made = makeCredential({ ekPublicKey: readEndorsementKey(ek[ekType]), objectName: otherName, secret: randomBytes(32) });
    await expect(tpm.activate(made.credentialBlob, made.encryptedSecret, { ak, ek: ekType })).rejects.toThrow(/integrity check failed/);
  });
});

describe("tpm2-tools' own AK", () => {
  it("parses, and its Name is the one tpm2-tools wrote", () => {
    const pub = parseTpm2bPublic(ak.akPublic);
    expect(tpmName(pub)).toEqual(ak.akName);
    expect(attestationKeyProblems(pub)).toEqual([]);
  });

  it("is a second AK's blob refused by the first and accepted by its own", async () => {
    const second = await tpm.createAk("rsa");
    const secret = randomBytes(32);
    const made = makeCredential({ ekPublicKey: readEndorsementKey(ek.rsa), objectName: second.akName, secret });
    await expect(tpm.activate(made.credentialBlob, made.encryptedSecret, { ak })).rejects.toThrow(/integrity check failed/);
    expect(await tpm.activate(made.credentialBlob, made.encryptedSecret, { ak: second })).toEqual(secret);
  });

  it("flags a key tpm2_create made without fixedTPM and fixedParent", async () => {
    const problems = attestationKeyProblems(parseTpm2bPublic(await tpm.createMovableKey()));
    expect(problems).toEqual([expect.stringMatching(/^lacks fixedTPM/), expect.stringMatching(/^lacks fixedParent/)]);
  });
});

describe("tpm2_makecredential -T none (sanity check of the tools' file layout)", () => {
  it("splits into the two parts we send, which activate when written back our way", async () => {
    const secret = randomBytes(32);
    await writeFile(tpm.path("secret.bin"), secret);
    const name = ak.akName.toString("hex");
    await tpm.tool("tpm2_makecredential", [
      "-T",
      "none",
      "-e",
      "ek-rsa.pem",
      "-G",
      "rsa",
      "-s",
      "secret.bin",
      "-n",
      name,
      "-o",
      "tools-cred.blob",
    ]);
    const { credentialBlob, encryptedSecret } = parseToolsCredentialFile(await readFile(tpm.path("tools-cred.blob")));
    expect(encryptedSecret.readUInt16BE(0)).toBe(256);
    expect(await tpm.activate(credentialBlob, encryptedSecret, { ak })).toEqual(secret);
  });
});
