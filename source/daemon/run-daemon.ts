import { createFileLogger, type Logger } from '../config/index.js';
import { hostname } from 'node:os';
import { CLAW_VERSION, secureStateDirSync, ensureGatewayTokenSync, loadConfig, resolveGatewayPort, type ClawConfig, type StatePaths } from '../config/index.js';
import { GatewayServer, isLoopbackBind } from '../gateway/index.js';
import { hashToken } from '../config/index.js';
import { removeGatewayInfoSync, writeGatewayInfoSync } from '../client/index.js';
import { createCore, EventBus } from '../core/index.js';
import { acquireStateLockSync } from './state-lock.js';
import { detectSupervisor, startWatchdog, systemdNotify, watchdogIntervalMs } from './supervision/index.js';

export interface DaemonOptions {
  paths: StatePaths;
  port?: number;
  bind?: string;
  /** Also print log lines to the terminal (foreground `gateway run`). */
  echo?: boolean;
  /** Called once, when the first start's background start-up work is done (the executable saves its code cache then). */
  onWarm?: () => void;
}

/**
 * Runs the gateway in this process until SIGTERM/SIGINT (drain, exit 0) or a
 * shutdown request; SIGUSR1 drains and restarts in place on the same port.
 */
export async function runGatewayDaemon(options: DaemonOptions): Promise<void> {
  const { paths } = options;
  const log = createFileLogger(paths.logs, { echo: options.echo ?? false });
  const release = acquireStateLockSync(paths.gatewayLock, paths.root);
  let server: GatewayServer | undefined;
  let port = 0;
  let boundTo = '';
  let stopping = false;

  const startOnce = async (portToUse: number, loaded?: ClawConfig): Promise<void> => {
    const config = loaded ?? loadConfig(paths.config);
    for (const fixed of secureStateDirSync(paths)) log.warn(`tightened permissions: ${fixed}`);
    const bind = options.bind ?? config.gateway.bind;
    const token = ensureGatewayTokenSync(paths);
    if (!isLoopbackBind(bind)) log.warn(`binding ${bind}: reachable from other machines; every client must present the token`);
    // The one root: the event bus, then the core on it, then the gateway that serves it.
    log.addSecret(token);
    const events = new EventBus(config.gateway.resumeBufferEvents);
    const core = await createCore({ config, paths, log, events });
    await core.start();
    server = new GatewayServer({
      config,
      paths,
      port: portToUse,
      bind,
      token,
      log,
      core,
      supervisor: detectSupervisor(),
      onShutdownRequest: (restart, reason) => void (restart ? restartInPlace(reason) : shutdown(reason, 0)),
    });
    try {
      port = await server.start();
    } catch (error) {
      await core.stop();
      throw error;
    }
    boundTo = bind;
    writeGatewayInfoSync(paths, {
      pid: process.pid,
      port,
      bind,
      tokenHash: hashToken(token),
      startedAt: Date.now(),
      version: CLAW_VERSION,
      epoch: server.epoch,
    });
  };

  const shutdown = async (reason: string, code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const config = loadConfigQuiet(paths, log);
    // A drain that overruns must not keep the process alive forever.
    setTimeout(
      () => {
        log.error('drain overran its bound; exiting anyway');
        process.exit(code || 1);
      },
      (config?.gateway.drainTimeoutMs ?? 10_000) + 5000,
    ).unref();
    try {
      await server?.stop(reason);
    } finally {
      removeGatewayInfoSync(paths);
      release();
      log.info(`gateway exited (${reason})`);
      process.exit(code);
    }
  };

  const restartInPlace = async (reason: string): Promise<void> => {
    if (stopping) return;
    try {
      loadConfig(paths.config);
    } catch (error) {
      // Stopping first would leave nothing running: keep this gateway and say why.
      log.error(`restart refused: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    stopping = true;
    log.info(`restarting in place: ${reason}`);
    try {
      await server?.stop(reason, 1500);
      await startOnce(port);
      log.info(`restarted on port ${port}`);
    } catch (error) {
      log.error(`restart failed: ${String(error)}`);
      removeGatewayInfoSync(paths);
      release();
      process.exit(1);
    } finally {
      stopping = false;
    }
  };

  process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
  process.on('SIGINT', () => void shutdown('SIGINT', 0));
  process.on('SIGUSR1', () => void restartInPlace('SIGUSR1'));
  process.on('SIGHUP', () => log.info('SIGHUP ignored: use SIGUSR1 or `claw gateway restart` to reload'));
  process.on('uncaughtException', (error) => {
    log.error(`uncaught exception: ${error.stack ?? error.message}`);
    void shutdown('crash', 1);
  });
  process.on('unhandledRejection', (reason) => log.error(`unhandled rejection: ${String(reason)}`));

  try {
    const config = loadConfig(paths.config);
    await startOnce(resolveGatewayPort(config, options.port), config);
    if (options.onWarm) void server?.warmed().then(options.onWarm);
  } catch (error) {
    release();
    throw error;
  }
  log.info(`claw gateway ${CLAW_VERSION} ready on ${hostname()}:${port}`);
  superviseWithSystemd(() => server?.health().ok ?? false, log);
  if (options.echo) process.stdout.write(`claw gateway listening on ws://${boundTo}:${port} (pid ${process.pid})\n`);
}

/** READY=1 once listening, then watchdog pings only while the gateway is healthy. */
function superviseWithSystemd(healthy: () => boolean, log: Logger): void {
  if (detectSupervisor() !== 'systemd' || !process.env.NOTIFY_SOCKET) return;
  systemdNotify('READY=1');
  const intervalMs = watchdogIntervalMs();
  if (intervalMs === undefined) return;
  startWatchdog({
    intervalMs,
    lagThresholdMs: Math.max(1000, intervalMs / 4),
    health: healthy,
    onSkip: (sample) => log.warn('withholding the watchdog ping', { lagMs: Math.round(sample.lagMs), healthy: sample.healthy }),
  });
}

function loadConfigQuiet(paths: StatePaths, log: Logger) {
  try {
    return loadConfig(paths.config);
  } catch (error) {
    log.warn(`config unreadable during shutdown: ${String(error)}`);
    return undefined;
  }
}
