import { describe, expect, it } from "vitest";
import { chatSchemaIssues } from "@/test/chat-schemas/chat-schemas";
import { CHAT_EVENTS, CONSOLE_ORIGIN, HOSTILE_CONTEXT, MACHINE_CONTEXT } from "@/test/chat-schemas/chat-events";
import { describeChatEvent } from "./describe-chat-event";
import { mattermostEscape, mattermostMessage } from "./mattermost-message";

const render = (event: (typeof CHAT_EVENTS)[keyof typeof CHAT_EVENTS], context = MACHINE_CONTEXT) =>
  mattermostMessage(describeChatEvent(event, context, CONSOLE_ORIGIN));

describe("mattermostMessage", () => {
  it("text, and an attachment with a plain fallback, a colour, the title linking to the request, the facts", () => {
    const message = render(CHAT_EVENTS.approved);
    const url = `${CONSOLE_ORIGIN}/pools/gpu-fra1/requests/jreq_01jf3m2x7k5v9q8w4e6r2t1y0u`;
    expect(message.text).toBe("gpu-node-017.fra1.acme.example was approved to join");
    expect(message.attachments[0]).toMatchObject({
      fallback: `gpu-node-017.fra1.acme.example was approved to join ${url}`,
      color: "#16a34a",
      title: "Open the request",
      title_link: url,
      footer: "security.join-request.approved · evt_01jf3m2x7k5v9q8w4e6r2t1y0e",
    });
    expect(message.attachments[0]!.fields).toContainEqual({ short: true, title: "Serial number", value: "`CZ2041XK7Q`" });
  });

  it("escapes Markdown's link, emphasis and HTML characters", () => {
    expect(mattermostEscape("[x](y) *b* <i>")).toBe("\\[x\\]\\(y\\) \\*b\\* \\<i\\>");
  });

  it("attack: @all, @channel and Markdown links in a machine's values neither mention anyone nor link", () => {
    const hostile = { ...HOSTILE_CONTEXT, machine: { ...HOSTILE_CONTEXT.machine!, hostname: "@channel [click](https://evil.example)" } };
    const message = render(CHAT_EVENTS.created, hostile);
    expect(chatSchemaIssues("mattermost", message)).toEqual([]);
    const everything = [message.text, message.attachments[0]!.fallback, ...message.attachments[0]!.fields.map((field) => field.value)];
    for (const text of everything) expect(text).not.toMatch(/@(all|channel|here)\b/);
    expect(message.text).toBe("@\u200bchannel \\[click\\]\\(https://evil.example\\) asks to join and waits for a decision");
    // values sit in code spans (no Markdown, no links); a backtick cannot end one early
    expect(message.attachments[0]!.fields.find((field) => field.title === "Serial number")!.value).toMatch(/^`[^`]*`$/);
    expect(message.attachments[0]!.title_link).toBe(`${CONSOLE_ORIGIN}/pools/gpu-fra1/requests/jreq_01jf3m2x7k5v9q8w4e6r2t1y0u`);
  });
});
