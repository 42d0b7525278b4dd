/** SPEC I1: the join's tpm.ekCertificate (already checked to certify the presented EK) and its intermediates. */
export interface PresentedEkCertificate {
  certificate: string;
  chain?: string;
  /** the time of the join: when the chain must be valid */
  at: Date;
}
