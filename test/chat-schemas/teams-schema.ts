import { z } from "zod";

// A Microsoft Teams incoming-webhook message carrying an Adaptive Card, written from:
// https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/connectors-using#send-adaptive-cards-using-an-incoming-webhook
// (type "message", attachments[].contentType application/vnd.microsoft.card.adaptive, content the card),
// https://adaptivecards.io/explorer/AdaptiveCard.html (type, version, body, actions),
// https://adaptivecards.io/explorer/RichTextBlock.html, TextRun.html, TextBlock.html, FactSet.html,
// https://adaptivecards.io/explorer/Action.OpenUrl.html (title, url). Teams renders cards up to 1.5.

const colour = z.enum(["Default", "Dark", "Light", "Accent", "Good", "Warning", "Attention"]);
const textRun = z.strictObject({
  type: z.literal("TextRun"),
  text: z.string(),
  weight: z.enum(["Lighter", "Default", "Bolder"]).optional(),
  size: z.enum(["Small", "Default", "Medium", "Large", "ExtraLarge"]).optional(),
  color: colour.optional(),
  fontType: z.enum(["Default", "Monospace"]).optional(),
  isSubtle: z.boolean().optional(),
});
const element = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("RichTextBlock"), inlines: z.array(textRun).min(1) }),
  z.strictObject({ type: z.literal("TextBlock"), text: z.string(), wrap: z.boolean().optional(), weight: z.string().optional() }),
  z.strictObject({ type: z.literal("FactSet"), facts: z.array(z.strictObject({ title: z.string(), value: z.string() })) }),
]);
const openUrl = z.strictObject({ type: z.literal("Action.OpenUrl"), title: z.string().min(1), url: z.url() });

export const adaptiveCardSchema = z.strictObject({
  $schema: z.string().optional(),
  type: z.literal("AdaptiveCard"),
  version: z.string().regex(/^1\.[4-5]$/, "Adaptive Card 1.4 or 1.5 (what Teams renders)"),
  body: z.array(element).min(1),
  actions: z.array(openUrl).optional(),
});

export const teamsMessageSchema = z.strictObject({
  type: z.literal("message"),
  summary: z.string().optional(),
  attachments: z
    .array(
      z.strictObject({
        contentType: z.literal("application/vnd.microsoft.card.adaptive"),
        contentUrl: z.null().optional(),
        content: adaptiveCardSchema,
      }),
    )
    .length(1),
});
