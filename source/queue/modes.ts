import type { ClawConfig } from '../config/index.js';
import { parseSessionKey } from '../routing/index.js';

export type QueueMode = ClawConfig['queue']['mode'];
export type QueueConfig = ClawConfig['queue'];
export type DropPolicy = QueueConfig['drop'];
export type PoolName = 'main' | 'subagent' | 'cron';

export interface ModeSources {
  message?: QueueMode | undefined;
  session?: QueueMode | undefined;
  channel?: string | undefined;
}

/** per message > session > channel > global. */
export function resolveQueueMode(sources: ModeSources, config: Pick<QueueConfig, 'mode' | 'byChannel'>): QueueMode {
  return sources.message ?? sources.session ?? (sources.channel !== undefined ? config.byChannel[sources.channel] : undefined) ?? config.mode;
}

/** Which global pool a session's turns draw from. */
export function poolForSessionKey(key: string): PoolName {
  const kind = parseSessionKey(key)?.kind;
  return kind === 'cron' ? 'cron' : kind === 'subagent' ? 'subagent' : 'main';
}
