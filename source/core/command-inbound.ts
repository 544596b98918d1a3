import { randomUUID } from 'node:crypto';
import { replyRouteOf, type InboundMessage } from '../queue/index.js';
import { routeInbound } from '../routing/index.js';
import type { ClawConfig } from '../config/index.js';
import type { CommandService } from './command-service.js';
import type { EventBus } from './event-bus.js';
import type { AcceptResult, InboundPort } from './inbound-service.js';
import type { OutboundReply } from './outbound.js';
import type { ReplyRoute } from '../protocol/index.js';

/** Ends a message that ran no turn: its origin hears the outcome, its chat gets the reply (`ReplyDelivery.settle`). */
export type SettleMessage = (message: InboundMessage, route: ReplyRoute, reply: OutboundReply) => void;

/**
 * The inbound port as triggers see it: a message that is a slash command the
 * registry knows (`/abort`, `/status`, …) runs as that command — from the TUI,
 * the CLI or any channel alike — and its reply goes back like a turn's would
 * (a `chat` final event, and the channel's route); anything else is a message
 * for the session's lane.
 */
export class CommandAwareInbound implements InboundPort {
  constructor(
    private readonly messages: InboundPort,
    private readonly commands: CommandService,
    private readonly config: ClawConfig,
    private readonly events: EventBus,
    private readonly settle: SettleMessage,
  ) {}

  accept(message: InboundMessage): Promise<AcceptResult> {
    return this.commands.isCommand(message.text) ? this.#runCommand(message) : this.messages.accept(message);
  }

  replayOf(channel: string, messageId: string): string | undefined {
    return this.messages.replayOf(channel, messageId);
  }

  async #runCommand(message: InboundMessage): Promise<AcceptResult> {
    const sessionKey = message.sessionKey ?? routeInbound(message, this.config).sessionKey;
    const runId = randomUUID();
    const route = replyRouteOf(message);
    // Answer the sender first, then run: the command's events must follow the acceptance the sender is waiting on.
    setImmediate(() => {
      // A channel's owner may do admin things from the chat; anyone else only what a chat client may.
      void this.commands.run(sessionKey, message.text.trim(), message.owner ? ['admin'] : ['write']).then(
        ({ reply, data }) => {
          const started = (data as { runId?: unknown } | undefined)?.runId;
          const continuedBy = typeof started === 'string' ? started : undefined;
          this.events.emit('chat', { runId, sessionKey, state: 'final', text: reply, ...(continuedBy ? { continuedBy } : {}) });
          this.settle(message, route, { sessionKey, runId, messageId: message.messageId, status: 'replied', text: reply });
        },
        (error: unknown) => {
          const text = error instanceof Error ? error.message : String(error);
          this.events.emit('chat', { runId, sessionKey, state: 'error', message: text, hint: '/help lists the commands.' });
          this.settle(message, route, { sessionKey, runId, messageId: message.messageId, status: 'failed', text, forSender: true });
        },
      );
    });
    return { runId, sessionKey, status: 'started' };
  }
}
