import { z } from 'zod';
import { lazySchema } from '../protocol/index.js';
import type { ReplyRoute } from '../protocol/index.js';
import { defineTool, toolError, toolOk, type ToolDefinition } from '../tools/index.js';
import type { ChannelOutbound } from './channel.js';

/** Where a `message` call goes, or why it cannot go anywhere (with what it could name instead). */
export type TargetResolution = { ok: true; outbound: ChannelOutbound; route: ReplyRoute; ownChat: boolean } | { ok: false; error: string };

export interface MessageToolHost {
  resolve(input: {
    agentId: string;
    sessionKey: string;
    channel?: string | undefined;
    to?: string | undefined;
    threadId?: string | undefined;
  }): TargetResolution;
  /** A send to the turn's own chat: the final reply with the same text is then not sent again. */
  sentToOwnChat(sessionKey: string, text: string): void;
}

const input = lazySchema(() =>
  z.strictObject({
    action: z.enum(['send', 'reply', 'react', 'edit']).describe('send a new message, reply to one, react to one with an emoji, or edit one the bot sent'),
    channel: z.string().min(1).optional().describe('e.g. "telegram" or "telegram:<account>"; default: the channel of this conversation'),
    to: z.string().min(1).optional().describe('chat id; default: this conversation'),
    text: z.string().min(1).describe('the message (Markdown), or the emoji for react'),
    replyTo: z.string().min(1).optional().describe('the platform message id to reply to, react to or edit'),
    threadId: z.string().min(1).optional().describe('forum topic id'),
    silent: z.boolean().optional().describe('send without a notification sound'),
  }),
);

/** Message ids arrive as the journal's `<account>:<chat>:<message>` or as the bare platform number. */
function platformMessageId(id: string): string {
  return id.split(':').pop() ?? id;
}

/**
 * `message`: sends through a channel's outbound half with the account the
 * agent is bound to. Unknown channels and targets fail with the known ones.
 */
export function createMessageTool(host: MessageToolHost): ToolDefinition<z.output<typeof input>> {
  return defineTool({
    name: 'message',
    group: 'messaging',
    risk: 'medium',
    description:
      'Send, reply, react or edit a message on a chat channel (Telegram, Discord). Without `to` it writes to the conversation this turn answers; your final reply still goes there too, so do not repeat it.',
    input,
    async execute(args, context) {
      const target = host.resolve({ agentId: context.agentId, sessionKey: context.sessionKey, channel: args.channel, to: args.to, threadId: args.threadId });
      if (!target.ok) return toolError(target.error);
      const { outbound, route } = target;
      const where = `${route.channel}${route.accountId ? `:${route.accountId}` : ''} chat ${route.peer?.id ?? '?'}`;
      if (args.action !== 'send' && !args.replyTo)
        return toolError(`action "${args.action}" needs replyTo: the id of the message to ${args.action === 'reply' ? 'reply to' : args.action}`);
      const messageId = args.replyTo ? platformMessageId(args.replyTo) : undefined;
      const result =
        args.action === 'react'
          ? await outbound.react(route, messageId!, args.text)
          : await outbound.send(route, {
              text: args.text,
              ...(args.action === 'reply' ? { replyTo: messageId } : {}),
              ...(args.action === 'edit' ? { edit: messageId } : {}),
              ...(args.silent ? { silent: true } : {}),
            });
      if (!result.delivered) return toolError(`Not delivered to ${where}: ${result.error ?? 'unknown error'}`);
      if (target.ownChat && args.action === 'send') host.sentToOwnChat(context.sessionKey, args.text);
      return toolOk(
        `${args.action === 'react' ? 'Reacted' : args.action === 'edit' ? 'Edited' : 'Sent'} on ${where} (message ${result.messageIds.join(', ')}).`,
        {
          messageIds: result.messageIds,
        },
      );
    },
  });
}
