import type { InboundMessage } from '../queue/index.js';
import { ClawError, resourceMentions } from '../protocol/index.js';
import { McpCallError, wrapUntrusted, type McpManager } from '../tools/index.js';
import type { AcceptResult, InboundPort } from '../core/index.js';

/** Per attached resource; a longer one is cut with a note, so one mention cannot fill the message limit. */
export const MAX_MENTION_CHARS = 50_000;

/** Channels whose senders are the operator (TUI, `claw attach`, `claw send`): only they may make the gateway read a resource. */
const OPERATOR_CHANNELS = new Set(['tui']);

/**
 * Resolves `@server:uri` mentions when a message is accepted, so every
 * client (TUI, `claw attach`, the CLI) gets the same: the resource's text is
 * attached below the message, fenced as untrusted content. A mention of a
 * name that is not an MCP server is left alone (`@bob:mailto:…`); one that
 * names a server but cannot be read refuses the message with the reason.
 */
export class McpMentionInbound implements InboundPort {
  constructor(
    private readonly inner: InboundPort,
    private readonly manager: () => McpManager,
  ) {}

  replayOf(channel: string, messageId: string): string | undefined {
    return this.inner.replayOf(channel, messageId);
  }

  accept(message: InboundMessage): Promise<AcceptResult> {
    if (!OPERATOR_CHANNELS.has(message.channel) || !message.text.includes('@')) return this.inner.accept(message);
    const found = resourceMentions(message.text);
    const known = new Set(
      found.length > 0
        ? this.manager()
            .status()
            .map((server) => server.name)
        : [],
    );
    const mentions = found.filter((mention) => known.has(mention.server));
    // No await on the common path: acceptance order stays call order.
    if (mentions.length === 0) return this.inner.accept(message);
    return this.#attach(message, mentions);
  }

  async #attach(message: InboundMessage, mentions: ReturnType<typeof resourceMentions>): Promise<AcceptResult> {
    const seen = new Set<string>();
    const attachments: string[] = [];
    for (const { server, uri } of mentions) {
      const label = `@${server}:${uri}`;
      if (seen.has(label)) continue;
      seen.add(label);
      let read: { text: string; mimeType?: string };
      try {
        read = await this.manager().readResource(server, uri);
      } catch (error) {
        const why = error instanceof McpCallError || error instanceof Error ? error.message : String(error);
        throw new ClawError('bad_request', `Could not attach ${label}: ${why} Fix or remove the mention and send again.`);
      }
      const text =
        read.text.length > MAX_MENTION_CHARS
          ? `${read.text.slice(0, MAX_MENTION_CHARS)}\n[… cut at ${MAX_MENTION_CHARS} of ${read.text.length} characters]`
          : read.text;
      attachments.push(`Attached ${label}${read.mimeType ? ` (${read.mimeType})` : ''}:\n${wrapUntrusted(text, { source: 'mcp', server, resource: uri })}`);
    }
    return this.inner.accept({ ...message, text: `${message.text}\n\n${attachments.join('\n\n')}` });
  }
}
