import type { TimerHandle } from '../config/index.js';
import type { CorePorts, Service } from '../core/index.js';

type EvictionPorts = Pick<CorePorts, 'clock' | 'config' | 'lanes' | 'sessions' | 'log'>;

/** Looks for idle sessions at most this often; a short idle time is checked at a quarter of it. */
const SWEEP_EVERY_MS = 60_000;
const MIN_SWEEP_MS = 250;

/**
 * Idle-session eviction: an open transcript costs memory and a file handle
 * for as long as the gateway runs, so one that no turn, queued message or
 * caller used for `session.evictIdleMinutes` is closed and dropped from the
 * registry. A later message reopens it from disk with its whole history.
 */
export class SessionEviction implements Service {
  readonly name = 'session-eviction';
  #core: EvictionPorts | undefined;
  #timer: TimerHandle | undefined;
  #sweeping: Promise<void> | undefined;
  #stopped = false;

  start(core: EvictionPorts): void {
    this.#core = core;
    this.#stopped = false;
    this.#arm();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer && this.#core) this.#core.clock.clearTimer(this.#timer);
    this.#timer = undefined;
    await this.#sweeping;
  }

  #idleMs(): number {
    return this.#core!.config.current.session.evictIdleMinutes * 60_000;
  }

  #arm(): void {
    if (this.#stopped) return;
    const idleMs = this.#idleMs();
    // Off (0): still look now and then, so turning it on in claw.json applies without a restart.
    const every = idleMs > 0 ? Math.max(MIN_SWEEP_MS, Math.min(SWEEP_EVERY_MS, idleMs / 4)) : SWEEP_EVERY_MS;
    this.#timer = this.#core!.clock.setTimer(() => {
      this.#timer = undefined;
      this.#sweeping = this.#sweep().finally(() => {
        this.#sweeping = undefined;
        this.#arm();
      });
    }, every);
  }

  async #sweep(): Promise<void> {
    const core = this.#core!;
    const idleMs = this.#idleMs();
    if (idleMs <= 0) return;
    const busy = (key: string): boolean => {
      const lane = core.lanes.info(key);
      return lane.running || lane.queued > 0;
    };
    try {
      const evicted = await core.sessions.evictIdle(idleMs, busy);
      if (evicted > 0) core.log.debug(`sessions: closed ${evicted} idle transcript(s), ${core.sessions.openCount()} open`);
    } catch (error) {
      core.log.warn(`sessions: idle eviction failed: ${String(error)}`);
    }
  }
}
