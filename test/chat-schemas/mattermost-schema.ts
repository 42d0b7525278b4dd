import { z } from "zod";

// A Mattermost incoming-webhook payload with message attachments, written from:
// https://developers.mattermost.com/integrate/webhooks/incoming/ (text, attachments, …),
// https://developers.mattermost.com/integrate/reference/message-attachments/ (fallback required,
// color a hex code, title, title_link, fields[] of title/value/short, footer).

export const mattermostMessageSchema = z.strictObject({
  text: z.string().max(16_383),
  attachments: z
    .array(
      z.strictObject({
        fallback: z.string().min(1),
        color: z
          .string()
          .regex(/^#[0-9a-fA-F]{6}$/)
          .optional(),
        pretext: z.string().optional(),
        text: z.string().optional(),
        title: z.string().optional(),
        title_link: z.url().optional(),
        fields: z.array(z.strictObject({ title: z.string(), value: z.string(), short: z.boolean() })).optional(),
        footer: z.string().optional(),
      }),
    )
    .min(1),
});
