import type { ChatMessage } from "./chat-message";

// Slack incoming webhook: `text` (the notification's fallback) and Block Kit
// `blocks` (https://api.slack.com/reference/block-kit/blocks). The link is a
// button with a `url`: Slack opens it and sends no interaction anywhere.

/**
 * Slack mrkdwn's control characters are &, < and > (https://api.slack.com/reference/surfaces/formatting#escaping):
 * escaped, `<!channel>` or `<https://evil|click>` in a hostname is text, not a mention or a link.
 */
export const slackEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A value in a code span: not formatted and not auto-linked; a backtick in it would end the span, so it is swapped for a look-alike. */
const slackCode = (text: string) => `\`${slackEscape(text).replace(/`/g, "ˋ")}\``;

/** Block Kit limits: a section's text ≤ 3000 characters, a button's text ≤ 75, a context element's ≤ 3000. */
const SECTION_TEXT_MAX = 3000;

export function slackMessage(message: ChatMessage) {
  const headline = slackEscape(message.headline);
  const facts = message.facts.map((fact) => `*${slackEscape(fact.label)}:* ${slackCode(fact.value)}`).join("\n");
  return {
    text: headline,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${headline}*`.slice(0, SECTION_TEXT_MAX) } },
      ...(facts ? [{ type: "section", text: { type: "mrkdwn", text: facts.slice(0, SECTION_TEXT_MAX) } }] : []),
      ...(message.link
        ? [
            {
              type: "actions",
              elements: [
                { type: "button", text: { type: "plain_text", text: message.link.label }, url: message.link.url, action_id: "open" },
              ],
            },
          ]
        : []),
      { type: "context", elements: [{ type: "mrkdwn", text: slackCode(`${message.eventType} · ${message.eventId}`) }] },
    ],
  };
}
