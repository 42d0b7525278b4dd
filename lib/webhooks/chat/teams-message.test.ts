import { describe, expect, it } from "vitest";
import { chatSchemaIssues } from "@/test/chat-schemas/chat-schemas";
import { CHAT_EVENTS, CONSOLE_ORIGIN, HOSTILE_CONTEXT, MACHINE_CONTEXT } from "@/test/chat-schemas/chat-events";
import { describeChatEvent } from "./describe-chat-event";
import { teamsMessage } from "./teams-message";

const render = (event: (typeof CHAT_EVENTS)[keyof typeof CHAT_EVENTS], context = MACHINE_CONTEXT) =>
  teamsMessage(describeChatEvent(event, context, CONSOLE_ORIGIN));
const cardOf = (message: ReturnType<typeof render>) => message.attachments[0]!.content;

describe("teamsMessage", () => {
  it("an Adaptive Card attachment with the headline, the facts and an Action.OpenUrl to the request", () => {
    const message = render(CHAT_EVENTS.rejected);
    expect(message.attachments[0]!.contentType).toBe("application/vnd.microsoft.card.adaptive");
    const card = cardOf(message);
    expect(card).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    expect(card.body[0]!.inlines[0]).toMatchObject({ text: "gpu-node-017.fra1.acme.example was rejected", color: "Attention" });
    expect(card.body.map((line) => line.inlines.map((run) => run.text).join(""))).toContain("Reason: not one of ours");
    expect(card.actions).toEqual([
      {
        type: "Action.OpenUrl",
        title: "Open the request",
        url: `${CONSOLE_ORIGIN}/pools/gpu-fra1/requests/jreq_01jf3m2x7k5v9q8w4e6r2t1y0u`,
      },
    ]);
  });

  it("attack: Markdown in a hostname or serial stays text: it is only ever in a TextRun, which Teams does not read as Markdown", () => {
    const message = render(CHAT_EVENTS.created, HOSTILE_CONTEXT);
    expect(chatSchemaIssues("teams", message)).toEqual([]);
    const card = cardOf(message);
    // no element that reads Markdown (TextBlock, FactSet) at all
    expect(card.body.every((element) => element.type === "RichTextBlock")).toBe(true);
    const runs = card.body.flatMap((element) => element.inlines.map((run) => run.text));
    expect(runs).toContain(HOSTILE_CONTEXT.machine!.serialNumber);
    expect(card.actions.map((action) => action.url)).toEqual([`${CONSOLE_ORIGIN}/pools/gpu-fra1/requests/jreq_01jf3m2x7k5v9q8w4e6r2t1y0u`]);
  });
});
