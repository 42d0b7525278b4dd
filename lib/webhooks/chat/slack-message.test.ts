import { describe, expect, it } from "vitest";
import { chatSchemaIssues } from "@/test/chat-schemas/chat-schemas";
import { CHAT_EVENTS, CONSOLE_ORIGIN, HOSTILE_CONTEXT, MACHINE_CONTEXT } from "@/test/chat-schemas/chat-events";
import { describeChatEvent } from "./describe-chat-event";
import { slackEscape, slackMessage } from "./slack-message";

const render = (event: (typeof CHAT_EVENTS)[keyof typeof CHAT_EVENTS], context = MACHINE_CONTEXT) =>
  slackMessage(describeChatEvent(event, context, CONSOLE_ORIGIN));
/** Every mrkdwn string Slack parses: the fallback text and each block's texts. */
const mrkdwnOf = (message: ReturnType<typeof render>) => [
  message.text,
  ...message.blocks.flatMap((block) => ("text" in block ? [block.text?.text] : block.elements.map((element) => element.text))),
];

describe("slackMessage", () => {
  it("text fallback, the headline in bold, the facts, a link button, the event in small print", () => {
    const message = render(CHAT_EVENTS.created);
    expect(message.text).toBe("gpu-node-017.fra1.acme.example asks to join and waits for a decision");
    expect(message.blocks[0]).toEqual({ type: "section", text: { type: "mrkdwn", text: `*${message.text}*` } });
    expect(message.blocks[1]).toMatchObject({ type: "section", text: { type: "mrkdwn" } });
    expect((message.blocks[1] as { text: { text: string } }).text.text).toContain("*Serial number:* `CZ2041XK7Q`");
    expect(message.blocks[3]).toEqual({
      type: "context",
      elements: [{ type: "mrkdwn", text: "`security.join-request.created · evt_01jf3m2x7k5v9q8w4e6r2t1y0a`" }],
    });
  });

  it("the button is a link (type button with a url), never an action that approves: no value, nothing for an interaction endpoint", () => {
    const actions = render(CHAT_EVENTS.created).blocks.find((block) => block.type === "actions");
    expect(actions).toEqual({
      type: "actions",
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: "Open the request" },
          url: `${CONSOLE_ORIGIN}/pools/gpu-fra1/requests/jreq_01jf3m2x7k5v9q8w4e6r2t1y0u`,
          action_id: "open",
        },
      ],
    });
    expect(render(CHAT_EVENTS.other, { poolName: null, machine: null }).blocks.some((block) => block.type === "actions")).toBe(false);
  });

  it("escapes &, < and > (Slack's control characters)", () => {
    expect(slackEscape("a & <b> c")).toBe("a &amp; &lt;b&gt; c");
  });

  it("attack: a hostname <!channel> and a serial <https://evil|click> become neither a mention nor a link", () => {
    const message = render(CHAT_EVENTS.created, HOSTILE_CONTEXT);
    expect(chatSchemaIssues("slack", message)).toEqual([]);
    for (const text of mrkdwnOf(message).filter((each) => typeof each === "string")) {
      // Slack reads <…> as a mention, channel or link: no unescaped < or > survives
      expect(text).not.toMatch(/[<>]/);
      expect(text).not.toContain("<!channel>");
    }
    expect(message.text).toBe("&lt;!channel&gt; asks to join and waits for a decision");
    const facts = (message.blocks[1] as { text: { text: string } }).text.text;
    expect(facts).toContain("*Machine:* `&lt;!channel&gt;`");
    // a backtick cannot end the code span early
    expect(facts).toContain("ˋzˋ`");
    // the only link is ours, in the button
    expect(JSON.stringify(message)).not.toMatch(/"url":"https:\/\/evil/);
  });
});
