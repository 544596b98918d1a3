import type { EventBus } from './event-bus.js';
import type { Lifecycle } from './lifecycle.js';
import type { SessionSummary } from '../protocol/index.js';
import type { LaneQueue } from '../queue/index.js';
import type { SessionEntry, SessionRegistry } from '../sessions/index.js';

export type SessionChange = 'created' | 'updated' | 'reset' | 'deleted';

/**
 * Sessions as the rest of the daemon uses them: the registry plus what every
 * caller needs on top of it — the wire summary (with lane state), the
 * `sessions.changed` broadcast, and the one reset path shared by the RPC
 * methods and the `/new` and `/reset` commands.
 */
export class SessionsService {
  constructor(
    readonly registry: SessionRegistry,
    private readonly lanes: LaneQueue,
    private readonly events: EventBus,
    private readonly lifecycle: Lifecycle,
  ) {}

  summary(key: string, agentId: string, entry: SessionEntry): SessionSummary {
    return { key, agentId, ...entry, ...this.lanes.laneInfo(key) };
  }

  summaryOf(key: string): SessionSummary {
    const { agentId, entry } = this.registry.require(key);
    return this.summary(key, agentId, entry);
  }

  list(agentId?: string, limit?: number): SessionSummary[] {
    const all = this.registry.list(agentId);
    return (limit === undefined ? all : all.slice(0, limit)).map(({ key, agentId: id, entry }) => this.summary(key, id, entry));
  }

  changed(key: string, reason: SessionChange): void {
    const found = reason === 'deleted' ? undefined : this.registry.get(key);
    this.events.emit('sessions.changed', { key, reason, ...(found ? { session: this.summary(key, found.agentId, found.entry) } : {}) });
  }

  /** The session, created (and announced) if the key is new. */
  ensure(key: string): SessionSummary {
    const ensured = this.registry.ensure(key);
    if (ensured.created) this.changed(key, 'created');
    return this.summaryOf(key);
  }

  /**
   * Starts a new transcript for the key (`/new`, `/reset`, sessions.new|reset).
   * Lifecycle listeners (saving the conversation to memory, hooks) run first
   * and are awaited: they see the transcript that is about to be replaced.
   */
  async reset(key: string, options: { kind: 'new' | 'reset'; model?: string }): Promise<SessionSummary> {
    await this.lifecycle.emit(options.kind === 'new' ? 'command:new' : 'command:reset', { sessionKey: key });
    if (!this.registry.get(key)) this.registry.ensure(key);
    this.registry.reset(key, options.model ? { model: options.model } : {});
    this.changed(key, 'reset');
    return this.summaryOf(key);
  }
}
