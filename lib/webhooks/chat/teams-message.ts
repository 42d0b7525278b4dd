import type { ChatMessage } from "./chat-message";

// Microsoft Teams incoming webhook (Workflows or the older connector): a
// message whose `attachments` hold one Adaptive Card 1.4
// (https://learn.microsoft.com/en-us/microsoftteams/platform/task-modules-and-cards/cards/cards-reference#adaptive-card,
// https://adaptivecards.io/explorer/). Teams reads Markdown in a TextBlock and
// in a Fact's title and value; a TextRun reads none
// (https://learn.microsoft.com/en-us/adaptive-cards/schema-explorer/text-run),
// so every string we did not write goes in a TextRun.

const COLOURS: Record<ChatMessage["tone"], string> = { waiting: "Warning", good: "Good", bad: "Attention", neutral: "Default" };

/** One line of plain text: a TextRun is never read as Markdown, so `[click](https://evil)` stays text. */
const plainLine = (runs: { text: string; weight?: "Bolder"; size?: "Medium"; color?: string; fontType?: "Monospace" }[]) => ({
  type: "RichTextBlock",
  inlines: runs.map((run) => ({ type: "TextRun", ...run })),
});

export function teamsMessage(message: ChatMessage) {
  const card = {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.4",
    body: [
      plainLine([{ text: message.headline, weight: "Bolder", size: "Medium", color: COLOURS[message.tone] }]),
      ...message.facts.map((fact) =>
        plainLine([
          { text: `${fact.label}: `, weight: "Bolder" },
          { text: fact.value, fontType: "Monospace" },
        ]),
      ),
      plainLine([{ text: `${message.eventType} · ${message.eventId}`, color: "Default" }]),
    ],
    actions: message.link ? [{ type: "Action.OpenUrl", title: message.link.label, url: message.link.url }] : [],
  };
  return {
    type: "message",
    summary: message.headline,
    attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: card }],
  };
}
