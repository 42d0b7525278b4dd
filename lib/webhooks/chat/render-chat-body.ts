import type { ChatFormat } from "../webhook-format";
import type { ChatContext, ChatEvent } from "./chat-message";
import { describeChatEvent } from "./describe-chat-event";
import { googleChatMessage } from "./google-chat-message";
import { mattermostMessage } from "./mattermost-message";
import { slackMessage } from "./slack-message";
import { teamsMessage } from "./teams-message";

const RENDERERS = {
  slack: slackMessage,
  teams: teamsMessage,
  google_chat: googleChatMessage,
  mattermost: mattermostMessage,
} satisfies Record<ChatFormat, unknown>;

/** The JSON body a chat service's incoming webhook takes for `event`; `consoleOrigin` is NEXTAUTH_URL, where its link points. */
export function renderChatBody(format: ChatFormat, event: ChatEvent, context: ChatContext, consoleOrigin: string | undefined): object {
  return RENDERERS[format](describeChatEvent(event, context, consoleOrigin));
}
