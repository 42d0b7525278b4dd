import "server-only";
import { ApiError } from "../../api/errors";
import { matchBootState } from "@/lib/pools/boot-states";
import type { BootMeasurementJson, JoinRequestReason } from "@/lib/join-requests/join-request-json";
import type { PoolBootPolicy } from "./pool-boot-policy";

export interface BootVerdict {
  defer?: JoinRequestReason;
  /** what the quote attested, kept with the request if the join makes one */
  measurement?: NonNullable<BootMeasurementJson>;
}

/**
 * SPEC I2, after the quote verified (or none was asked): values matching a
 * known state are measured with its name; matching none, they defer the join
 * `boot-state-unknown` where the pool requires a known boot, and are only
 * measured where it does not. A pool that requires a known boot admits only
 * a quoted boot (as G2's TPM pool admits only a proven TPM): a join without a
 * TPM, or whose challenge asked for no quote (the pool gained its states
 * since), is refused, and the machine joins again with its TPM; a retry
 * without the quote its challenge asked for is 400 naming tpm.quote. Where a
 * known boot is not required, a retry without a quote is not measured.
 */
export function judgeBoot(
  policy: PoolBootPolicy,
  quote: { pcrs: Record<string, string> | null; asked: boolean },
  poolId: string | undefined,
): BootVerdict {
  const { pcrs } = quote;
  if (!pcrs) {
    if (!policy.requireKnownBoot) return {};
    if (quote.asked)
      throw new ApiError("INVALID_ARGUMENT", "tpm.quote is required: this pool requires a known boot and the challenge asked for a quote", [
        { field: "tpm.quote", message: "is required: the challenge asked for a quote of its pcrSelection over its nonce" },
      ]);
    throw new ApiError(
      "PERMISSION_DENIED",
      `pool ${poolId} requires a known boot state: join with tpm.ekPublicKey and tpm.akPublic, and answer the challenge with tpm.quote`,
    );
  }
  const bootState = matchBootState(policy.states, pcrs);
  const measurement = { pcrs, bootState };
  if (bootState === null && policy.requireKnownBoot) return { defer: "boot-state-unknown", measurement };
  return { measurement };
}
