import { z } from "zod";

// A Google Chat incoming-webhook message with cardsV2, written from:
// https://developers.google.com/workspace/chat/api/reference/rest/v1/spaces.messages#CardWithId (cardId, card),
// https://developers.google.com/workspace/chat/api/reference/rest/v1/cards (Card: header, sections[].widgets[];
// at most 100 widgets a card; DecoratedText, TextParagraph, ButtonList, Button.onClick.openLink.url).

const openLink = z.strictObject({ url: z.url() });
const widget = z.union([
  z.strictObject({
    decoratedText: z.strictObject({ topLabel: z.string().optional(), text: z.string().min(1), bottomLabel: z.string().optional() }),
  }),
  z.strictObject({ textParagraph: z.strictObject({ text: z.string().min(1) }) }),
  z.strictObject({
    buttonList: z.strictObject({
      buttons: z.array(z.strictObject({ text: z.string().min(1), onClick: z.strictObject({ openLink }) })).min(1),
    }),
  }),
]);

export const googleChatMessageSchema = z.strictObject({
  cardsV2: z
    .array(
      z.strictObject({
        cardId: z.string().min(1),
        card: z.strictObject({
          header: z.strictObject({ title: z.string().min(1), subtitle: z.string().optional() }).optional(),
          sections: z
            .array(z.strictObject({ header: z.string().optional(), widgets: z.array(widget).min(1) }))
            .min(1)
            .refine((sections) => sections.flatMap((section) => section.widgets).length <= 100, "at most 100 widgets a card"),
        }),
      }),
    )
    .min(1),
});
