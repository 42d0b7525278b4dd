import { describe, expect, it } from "vitest";
import { chatSchemaIssues } from "@/test/chat-schemas/chat-schemas";
import { CHAT_EVENTS, CONSOLE_ORIGIN, HOSTILE_CONTEXT, MACHINE_CONTEXT } from "@/test/chat-schemas/chat-events";
import { describeChatEvent } from "./describe-chat-event";
import { googleChatMessage } from "./google-chat-message";

const render = (event: (typeof CHAT_EVENTS)[keyof typeof CHAT_EVENTS], context = MACHINE_CONTEXT) =>
  googleChatMessage(describeChatEvent(event, context, CONSOLE_ORIGIN));

describe("googleChatMessage", () => {
  it("a card with its id, the headline as its header, the facts, and an openLink button to the node", () => {
    const message = render(CHAT_EVENTS.attestationFailed);
    const [card] = message.cardsV2;
    expect(card!.cardId).toBe("bc-evt_01jf3m2x7k5v9q8w4e6r2t1y0k");
    expect(card!.card.header.title).toBe("Node gpu-node-017.fra1.acme.example failed attestation: its boot matches no known state");
    const widgets = card!.card.sections[0]!.widgets;
    expect(widgets).toContainEqual({ decoratedText: { topLabel: "Unmatched PCRs", text: "4, 7" } });
    expect(widgets.at(-1)).toEqual({
      buttonList: {
        buttons: [
          {
            text: "Open the node",
            onClick: { openLink: { url: `${CONSOLE_ORIGIN}/pools/gpu-fra1/nodes/node_01jf3m3a8b7c6d5e4f3g2h1j0k` } },
          },
        ],
      },
    });
  });

  it("an event without facts or a page still has a widget (a section must hold one)", () => {
    const message = render(CHAT_EVENTS.other, { poolName: null, machine: null });
    expect(message.cardsV2[0]!.card.sections[0]!.widgets).toEqual([{ textParagraph: { text: "compute.admin.changed" } }]);
  });

  it("attack: HTML in a serial is escaped in widget text (Google Chat reads <a href>); no top-level text reads <users/all>", () => {
    const message = render(CHAT_EVENTS.created, HOSTILE_CONTEXT);
    expect(chatSchemaIssues("google_chat", message)).toEqual([]);
    expect("text" in message).toBe(false);
    const texts = message.cardsV2[0]!.card.sections[0]!.widgets.flatMap((widget) =>
      "decoratedText" in widget ? [widget.decoratedText.text] : [],
    );
    for (const text of texts) expect(text).not.toMatch(/[<>"]/);
    expect(texts).toContain("&lt;!channel&gt;");
    expect(texts.join(" ")).toContain("&lt;a href=&quot;https://evil.example&quot;&gt;y&lt;/a&gt;");
  });
});
