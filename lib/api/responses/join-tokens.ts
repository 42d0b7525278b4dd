import { z } from "zod";
import { joinTokenJson } from "@/lib/join-tokens/join-token-json";

// What the joinTokens methods answer; revoke returns the token itself.
export const createJoinTokenResponse = joinTokenJson.extend({
  bearer: z.string().startsWith("bcjt_").meta({ description: "bcjt_<id>.<secret>, returned only here" }),
});
export const listJoinTokensResponse = z.strictObject({ joinTokens: z.array(joinTokenJson) });
