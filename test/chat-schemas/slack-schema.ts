import { z } from "zod";

// Slack incoming-webhook message with Block Kit blocks, written from Slack's documentation:
// https://api.slack.com/reference/block-kit/blocks (section: text ≤ 3000; actions: ≤ 25 elements;
// context: ≤ 10 elements), https://api.slack.com/reference/block-kit/block-elements#button
// (text plain_text ≤ 75, url ≤ 3000, action_id ≤ 255), https://api.slack.com/reference/messaging/payload
// (≤ 50 blocks), https://api.slack.com/reference/block-kit/composition-objects#text.

const mrkdwn = (max: number) =>
  z.strictObject({ type: z.literal("mrkdwn"), text: z.string().min(1).max(max), verbatim: z.boolean().optional() });
const plainText = (max: number) =>
  z.strictObject({ type: z.literal("plain_text"), text: z.string().min(1).max(max), emoji: z.boolean().optional() });

const button = z.strictObject({
  type: z.literal("button"),
  text: plainText(75),
  url: z.url().max(3000).optional(),
  action_id: z.string().max(255).optional(),
  value: z.string().max(2000).optional(),
  style: z.enum(["primary", "danger"]).optional(),
});

const block = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("section"), text: z.union([mrkdwn(3000), plainText(3000)]), block_id: z.string().max(255).optional() }),
  z.strictObject({ type: z.literal("actions"), elements: z.array(button).min(1).max(25), block_id: z.string().max(255).optional() }),
  z.strictObject({
    type: z.literal("context"),
    elements: z
      .array(z.union([mrkdwn(3000), plainText(3000)]))
      .min(1)
      .max(10),
  }),
  z.strictObject({ type: z.literal("header"), text: plainText(150) }),
  z.strictObject({ type: z.literal("divider") }),
]);

export const slackMessageSchema = z.strictObject({
  text: z.string().min(1).max(40_000),
  blocks: z.array(block).min(1).max(50),
});
