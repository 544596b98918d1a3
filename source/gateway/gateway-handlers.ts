import { hostname } from 'node:os';
import { CLAW_VERSION } from '../config/index.js';
import type { GatewaySnapshot, HealthPayload, PresenceEntry } from '../protocol/index.js';
import type { GatewayModule } from './module.js';

export interface CoreHost {
  startedAt: number;
  stateDir: string;
  bind: string;
  epoch: string;
  supervisor: 'systemd' | 'launchd' | 'none';
  port(): number;
  seq(): number;
  presence(): PresenceEntry[];
  health(): HealthPayload;
  snapshot(): GatewaySnapshot;
  requestShutdown(restart: boolean, reason: string): void;
}

/** The gateway's own methods: health, status, shutdown and snapshot resync. */
export function gatewayHandlers(host: CoreHost): GatewayModule {
  return {
    name: 'gateway',
    handlers: {
      health: () => host.health(),
      status: () => ({
        version: CLAW_VERSION,
        pid: process.pid,
        uptimeMs: Date.now() - host.startedAt,
        host: hostname(),
        bind: host.bind,
        port: host.port(),
        stateDir: host.stateDir,
        clients: host.presence(),
        epoch: host.epoch,
        seq: host.seq(),
        supervisor: host.supervisor,
        ...(() => {
          const { config, schedule, cooldowns, recovery, spend } = host.snapshot();
          return {
            ...(config ? { config } : {}),
            ...(schedule ? { schedule } : {}),
            ...(cooldowns ? { cooldowns } : {}),
            ...(recovery ? { recovery } : {}),
            ...(spend ? { spend } : {}),
          };
        })(),
      }),
      'gateway.shutdown': (params, caller) => {
        const restart = params?.restart ?? false;
        const reason = params?.reason ?? `requested by ${caller.clientId}`;
        // Answer first, then stop: the caller must see its request accepted.
        setImmediate(() => host.requestShutdown(restart, reason));
        return { accepted: true, restart };
      },
      'events.snapshot': () => ({ seq: host.seq(), snapshot: host.snapshot() }),
    },
  };
}
