// npm run docs:chat-examples: writes docs/examples/chat/*.json, the bodies each
// chat format receives for a realistic join request, so the docs can show one.
// Committed; scripts/docs/chat-examples.test.ts fails when they drift from the renderers.
import { mkdir, writeFile } from "node:fs/promises";
import { renderChatBody } from "@/lib/webhooks/chat/render-chat-body";
import type { ChatFormat } from "@/lib/webhooks/webhook-format";
import { CHAT_EVENTS, CONSOLE_ORIGIN, MACHINE_CONTEXT } from "@/test/chat-schemas/chat-events";

export const CHAT_EXAMPLES_DIRECTORY = "docs/examples/chat";

const EXAMPLES: { file: string; format: ChatFormat; event: keyof typeof CHAT_EVENTS }[] = [
  { file: "slack-waiting.json", format: "slack", event: "created" },
  { file: "slack-approved.json", format: "slack", event: "approved" },
  { file: "teams-waiting.json", format: "teams", event: "created" },
  { file: "google-chat-waiting.json", format: "google_chat", event: "created" },
  { file: "mattermost-waiting.json", format: "mattermost", event: "created" },
];

/** Each example's file name and the JSON it should hold. */
export const renderChatExamples = () =>
  EXAMPLES.map(({ file, format, event }) => ({
    file,
    text: `${JSON.stringify(renderChatBody(format, CHAT_EVENTS[event], MACHINE_CONTEXT, CONSOLE_ORIGIN), null, 2)}\n`,
  }));

if (process.argv[1]?.endsWith("write-chat-examples.ts")) {
  await mkdir(CHAT_EXAMPLES_DIRECTORY, { recursive: true });
  for (const example of renderChatExamples()) await writeFile(`${CHAT_EXAMPLES_DIRECTORY}/${example.file}`, example.text);
  console.log(`wrote ${renderChatExamples().length} examples to ${CHAT_EXAMPLES_DIRECTORY}`);
}
