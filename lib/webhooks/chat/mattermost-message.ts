import type { ChatMessage } from "./chat-message";

// Mattermost incoming webhook: `text` and Slack-style `attachments`
// (https://developers.mattermost.com/integrate/reference/message-attachments/).
// Mattermost reads Markdown and @mentions in `text`, attachment text and field
// values, so every value we did not write is neutralised for both.

const COLOURS: Record<ChatMessage["tone"], string> = { waiting: "#d97706", good: "#16a34a", bad: "#dc2626", neutral: "#6b7280" };

/** Breaks an @mention (@channel, @all, @someone) with a zero-width space: it reads the same and notifies no one. */
const noMention = (text: string) => text.replace(/@/g, "@\u200b");

/** Markdown's special characters backslash-escaped, and no mention: a hostname like `[click](https://evil)` stays text. */
export const mattermostEscape = (text: string) => noMention(text.replace(/[\\`*_{}[\]()#!|<>~&]/g, (character) => `\\${character}`));

/** A value in a code span: neither Markdown nor a link; a backtick in it would end the span, so it is swapped for a look-alike. */
const mattermostCode = (text: string) => `\`${noMention(text.replace(/`/g, "ˋ"))}\``;

export function mattermostMessage(message: ChatMessage) {
  const plain = noMention(message.headline);
  return {
    text: mattermostEscape(message.headline),
    attachments: [
      {
        // plain text: notifications and clients without Markdown show it as is
        fallback: message.link ? `${plain} ${message.link.url}` : plain,
        color: COLOURS[message.tone],
        ...(message.link ? { title: message.link.label, title_link: message.link.url } : {}),
        fields: message.facts.map((fact) => ({ short: fact.value.length <= 40, title: fact.label, value: mattermostCode(fact.value) })),
        footer: `${message.eventType} · ${message.eventId}`,
      },
    ],
  };
}
