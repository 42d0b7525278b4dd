import { describe, expect, it } from "vitest";
import { chatSchemaIssues } from "@/test/chat-schemas/chat-schemas";
import { CHAT_EVENTS, CONSOLE_ORIGIN, HOSTILE_CONTEXT, MACHINE_CONTEXT } from "@/test/chat-schemas/chat-events";
import type { ChatFormat } from "../webhook-format";
import { describeChatEvent } from "./describe-chat-event";
import { renderChatBody } from "./render-chat-body";
import { slackMessage } from "./slack-message";

const FORMATS: ChatFormat[] = ["slack", "teams", "google_chat", "mattermost"];
const EVENTS = Object.keys(CHAT_EVENTS) as (keyof typeof CHAT_EVENTS)[];
const CASES = FORMATS.flatMap((format) => EVENTS.map((event) => [format, event] as const));

describe("renderChatBody", () => {
  it.each(CASES)("%s, %s: valid for the format's documented schema, with a plain and a hostile machine", (format, event) => {
    expect(chatSchemaIssues(format, renderChatBody(format, CHAT_EVENTS[event], MACHINE_CONTEXT, CONSOLE_ORIGIN))).toEqual([]);
    expect(chatSchemaIssues(format, renderChatBody(format, CHAT_EVENTS[event], HOSTILE_CONTEXT, CONSOLE_ORIGIN))).toEqual([]);
  });

  it("renders with the format's own renderer", () => {
    const event = CHAT_EVENTS.approved;
    expect(renderChatBody("slack", event, MACHINE_CONTEXT, CONSOLE_ORIGIN)).toEqual(
      slackMessage(describeChatEvent(event, MACHINE_CONTEXT, CONSOLE_ORIGIN)),
    );
    // each format's body is a different shape: one format's never passes another's schema
    for (const format of FORMATS) {
      const body = renderChatBody(format, event, MACHINE_CONTEXT, CONSOLE_ORIGIN);
      for (const other of FORMATS.filter((each) => each !== format)) expect(chatSchemaIssues(other, body)).not.toEqual([]);
    }
  });
});
