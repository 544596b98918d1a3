import { randomUUID } from 'node:crypto';
import { CommandRegistry, type AgentRuntime, type CommandHost, type SlashCommand } from '../agent/index.js';
import type { CommandInfo } from '../protocol/index.js';
import type { Providers } from '../providers/index.js';
import type { EventBus } from './event-bus.js';

/**
 * The one slash-command registry. The TUI, the CLI and every channel run
 * commands through it (`commands.run`), and `commands.list` gives clients
 * each command's synopsis and argument values for completion.
 */
export class CommandService {
  readonly #registry = new CommandRegistry();
  /** Commands that come and go (user-invocable skills): asked for anew on every lookup, built-ins win. */
  readonly #sources: Array<(reserved: ReadonlySet<string>) => readonly SlashCommand[]> = [];

  constructor(
    private readonly host: CommandHost,
    private readonly agent: AgentRuntime,
    private readonly providers: Providers,
    private readonly events: EventBus,
  ) {}

  add(command: SlashCommand): void {
    this.#registry.add(command);
  }

  addSource(source: (reserved: ReadonlySet<string>) => readonly SlashCommand[]): void {
    this.#sources.push(source);
  }

  async list(): Promise<CommandInfo[]> {
    return [...(await this.#registry.info(this.providers)), ...(await this.#dynamic().info(this.providers))];
  }

  /** Whether the text is a slash command this registry knows (`/name …`). */
  isCommand(text: string): boolean {
    return this.#registry.knows(text) || this.#dynamic().knows(text);
  }

  #dynamic(): CommandRegistry {
    const reserved = new Set(this.#registry.list().flatMap((command) => [command.name, ...command.aliases]));
    return new CommandRegistry(this.#sources.flatMap((source) => source(reserved)));
  }

  /** Computes a session's context report now and publishes it as a `context` event; nothing when no model is configured. */
  async publishContext(sessionKey: string): Promise<void> {
    const { agent, events } = this;
    const session = await this.host.turnSession(sessionKey);
    const window = await agent.contextWindow(
      session,
      { chat: (p) => events.emit('chat', p), agent: (p) => events.emit('agent', p), context: (p) => events.emit('context', p) },
      `context-${randomUUID()}`,
    );
    await window?.report();
  }

  async run(sessionKey: string, text: string, scopes?: readonly string[]): Promise<{ reply: string; data?: unknown }> {
    const { agent, events } = this;
    const registry = this.#registry.knows(text) ? this.#registry : this.#dynamic();
    const result = await registry.run(text, {
      sessionKey,
      scopes,
      host: this.host,
      providers: this.providers,
      resolveModel: (session) => agent.resolveModel(session),
      resolveThinking: (session) => agent.resolveThinking(session),
      runShell: (session, command) => agent.runShell(session, command),
      lastError: (key) => agent.lastError(key),
      contextWindow: (session, runId) =>
        agent.contextWindow(
          session,
          { chat: (p) => events.emit('chat', p), agent: (p) => events.emit('agent', p), context: (p) => events.emit('context', p) },
          runId,
        ),
      contextReport: (session) => agent.contextReport(session),
    });
    return result.data === undefined ? { reply: result.reply } : { reply: result.reply, data: result.data };
  }
}
