import type { ChatMessage } from "./chat-message";

// Google Chat incoming webhook: a message with `cardsV2`
// (https://developers.google.com/workspace/chat/api/reference/rest/v1/cards).
// A card header's title and subtitle are plain text; a widget's text reads a
// few HTML tags (<b>, <a href>, <font>), so values we did not write are
// HTML-escaped there. No top-level `text`: it would read `<users/all>` as a
// mention and `<url|label>` as a link.

/** The HTML that Google Chat card text reads, escaped: `<a href=…>` in a hostname is shown, not followed. */
export const googleChatEscape = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function googleChatMessage(message: ChatMessage) {
  const widgets = [
    ...message.facts.map((fact) => ({ decoratedText: { topLabel: fact.label, text: googleChatEscape(fact.value) } })),
    ...(message.link
      ? [{ buttonList: { buttons: [{ text: message.link.label, onClick: { openLink: { url: message.link.url } } }] } }]
      : []),
  ];
  return {
    cardsV2: [
      {
        cardId: `bc-${message.eventId}`,
        card: {
          header: { title: message.headline, subtitle: `${message.eventType} · ${message.eventId}` },
          sections: [
            {
              // a section holds at least one widget
              widgets: widgets.length ? widgets : [{ textParagraph: { text: googleChatEscape(message.headline) } }],
            },
          ],
        },
      },
    ],
  };
}
