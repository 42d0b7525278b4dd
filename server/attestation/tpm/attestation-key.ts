import "server-only";
import { ApiError } from "../../api/errors";
import { attestationKeyProblems, parseTpm2bPublic, tpmName } from "@/lib/tpm/tpm2b-public";
import { TpmFormatError } from "@/lib/tpm/tpm-format-error";

const invalid = (message: string) => new ApiError("INVALID_ARGUMENT", `tpm.akPublic ${message}`, [{ field: "tpm.akPublic", message }]);

/**
 * SPEC F1: the AK must be a restricted signing key that cannot leave its TPM
 * (fixedTPM, fixedParent, sensitiveDataOrigin, restricted, sign); its Name is
 * what the credential is bound to. Anything else is INVALID_ARGUMENT naming
 * tpm.akPublic, with what is wrong.
 */
export function attestationKeyName(akPublic: Buffer): Buffer {
  let parsed;
  try {
    parsed = parseTpm2bPublic(akPublic);
  } catch (error) {
    if (error instanceof TpmFormatError) throw invalid(`is not a TPM2B_PUBLIC: ${error.message}`);
    throw error;
  }
  const problems = attestationKeyProblems(parsed);
  if (problems.length > 0) throw invalid(`is not a restricted signing key bound to its TPM: it ${problems.join(", ")}`);
  return tpmName(parsed);
}
