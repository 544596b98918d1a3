import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { spawn } from 'node:child_process';

export interface WatchdogSample {
  /** Worst event-loop delay since the last sample, ms. */
  lagMs: number;
  /** Whether every subsystem (lanes making progress included) reports healthy. */
  healthy: boolean;
}

/**
 * Ping only while the gateway is really working: a blocked event loop or a
 * wedged subsystem withholds the ping, and systemd restarts the service.
 */
export function shouldPingWatchdog(sample: WatchdogSample, lagThresholdMs: number): boolean {
  return sample.healthy && sample.lagMs < lagThresholdMs;
}

export type Notify = (message: string) => void;

/** sd_notify through the `systemd-notify` binary (Node has no unix datagram sockets). */
export const systemdNotify: Notify = (message) => {
  const child = spawn('systemd-notify', [message], { stdio: 'ignore' });
  child.on('error', () => undefined);
};

export type SupervisorKind = 'systemd' | 'launchd' | 'none';

export function detectSupervisor(env: NodeJS.ProcessEnv = process.env): SupervisorKind {
  if (env.NOTIFY_SOCKET || env.INVOCATION_ID) return 'systemd';
  if (env.XPC_SERVICE_NAME && env.XPC_SERVICE_NAME !== '0') return 'launchd';
  return 'none';
}

/** WATCHDOG_USEC from systemd, in ms, if the watchdog is on and meant for us. */
export function watchdogIntervalMs(env: NodeJS.ProcessEnv = process.env, pid = process.pid): number | undefined {
  const usec = Number(env.WATCHDOG_USEC);
  if (!Number.isFinite(usec) || usec <= 0) return undefined;
  if (env.WATCHDOG_PID && Number(env.WATCHDOG_PID) !== pid) return undefined;
  return Math.floor(usec / 1000);
}

export interface WatchdogOptions {
  intervalMs: number;
  lagThresholdMs: number;
  health: () => boolean;
  notify?: Notify;
  /** Injected in tests to simulate a stalled loop. */
  sampleLag?: () => number;
  onSkip?: (sample: WatchdogSample) => void;
}

/** Pings at half the watchdog interval while healthy. */
export function startWatchdog(options: WatchdogOptions): () => void {
  const notify = options.notify ?? systemdNotify;
  let histogram: IntervalHistogram | undefined;
  if (!options.sampleLag) {
    histogram = monitorEventLoopDelay({ resolution: 20 });
    histogram.enable();
  }
  const sampleLag =
    options.sampleLag ??
    (() => {
      const worst = histogram!.max / 1e6;
      histogram!.reset();
      return worst;
    });
  const timer = setInterval(
    () => {
      const sample = { lagMs: sampleLag(), healthy: options.health() };
      if (shouldPingWatchdog(sample, options.lagThresholdMs)) notify('WATCHDOG=1');
      else options.onSkip?.(sample);
    },
    Math.max(500, Math.floor(options.intervalMs / 2)),
  );
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram?.disable();
  };
}
