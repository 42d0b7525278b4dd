import type { z } from "zod";
import type { ChatFormat } from "@/lib/webhooks/webhook-format";
import { googleChatMessageSchema } from "./google-chat-schema";
import { mattermostMessageSchema } from "./mattermost-schema";
import { slackMessageSchema } from "./slack-schema";
import { teamsMessageSchema } from "./teams-schema";

/** Each chat format's incoming-webhook body, as its vendor documents it (links in each schema's file). */
export const CHAT_SCHEMAS: Record<ChatFormat, z.ZodType> = {
  slack: slackMessageSchema,
  teams: teamsMessageSchema,
  google_chat: googleChatMessageSchema,
  mattermost: mattermostMessageSchema,
};

/** The schema's complaints about `body` ("path: message"), none when it is valid. */
export function chatSchemaIssues(format: ChatFormat, body: unknown): string[] {
  const result = CHAT_SCHEMAS[format].safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}
