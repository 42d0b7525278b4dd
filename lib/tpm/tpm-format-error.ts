/**
 * A TPM structure or key the control plane cannot use. The message names what
 * is wrong in plain words: callers show it (as INVALID_ARGUMENT on the field
 * that carried the bytes), so it must make sense without the TPM spec at hand.
 */
export class TpmFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TpmFormatError";
  }
}
