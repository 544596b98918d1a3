import type { CorePorts } from './ports.js';

export interface ServiceHealth {
  ok: boolean;
  detail?: string;
}

/**
 * A subsystem the daemon runs. Built-ins are constructed by createCore; a
 * subsystem added later (channels, schedule, hooks, skills) is one of these,
 * listed once in createCore's service list, and reaches the rest of the
 * daemon only through the ports it is started with. It declares the ones it
 * uses: `start(ports: Pick<CorePorts, 'inbound' | 'clock'>)`.
 */
export interface Service {
  readonly name: string;
  start?(ports: CorePorts): Promise<void> | void;
  /**
   * What makes the service fully current but no accepted message waits for
   * (an index's first sync, file watchers): run in the background once the
   * gateway listens, after every service started. Whatever it prepares must
   * also be made on first use when asked for sooner.
   */
  warm?(): Promise<void> | void;
  /** Finish or checkpoint running work; must resolve by `deadline` (epoch ms). */
  drain?(deadline: number): Promise<void>;
  stop?(): Promise<void> | void;
  health?(): ServiceHealth;
}
