import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  detectSupervisor,
  installService,
  launchdPlist,
  shouldPingWatchdog,
  startWatchdog,
  systemdUnit,
  uninstallService,
  watchdogIntervalMs,
  type ServiceEnvironment,
} from '../../source/daemon/index.js';
import { makeTempState } from '../support/temp-state.js';

const spec = { nodePath: '/usr/bin/node', cliEntry: '/opt/claw app/dist/cli/main.js', stateDir: '/home/me/.claw' };

describe('service files', () => {
  it('writes a notify-type systemd unit that restarts on crash and on hang', () => {
    const unit = systemdUnit(spec);
    expect(unit).toContain('Type=notify');
    expect(unit).toContain('NotifyAccess=all');
    expect(unit).toContain('Restart=always');
    expect(unit).toContain('RestartSec=5');
    expect(unit).toMatch(/^WatchdogSec=30$/m);
    expect(unit).toContain('ExecStart=/usr/bin/node "/opt/claw app/dist/cli/main.js" gateway run');
    expect(unit).toContain('Environment=CLAW_STATE_DIR=/home/me/.claw');
    expect(unit).toContain('WantedBy=default.target');
  });

  it('writes a launchd plist with escaped values', () => {
    const plist = launchdPlist({ ...spec, env: { NOTE: 'a<b&c' }, logDir: '/tmp/logs' });
    expect(plist).toContain('<key>KeepAlive</key><true/>');
    expect(plist).toContain('<string>/opt/claw app/dist/cli/main.js</string>');
    expect(plist).toContain('<string>a&lt;b&amp;c</string>');
  });
});

describe('install and uninstall', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  function environment(platform: NodeJS.Platform, codes: Record<string, number> = {}) {
    const home = mkdtempSync(join(tmpdir(), 'claw-home-'));
    dirs.push(home);
    const ran: string[] = [];
    const env: ServiceEnvironment = {
      platform,
      home,
      configHome: join(home, '.config'),
      uid: 501,
      // systemctl/launchctl are not available in CI: record what would run.
      run: (file, args) => {
        const command = [file, ...args].join(' ');
        ran.push(command);
        return { code: codes[command] ?? 0, output: '' };
      },
    };
    return { env, ran, home };
  }

  it('installs and enables a systemd user unit, and removes it again', () => {
    const state = makeTempState();
    try {
      const { env, ran, home } = environment('linux');
      const outcome = installService(state.paths, env, { enable: true });
      expect(outcome.path).toBe(join(home, '.config', 'systemd', 'user', 'claw-gateway.service'));
      expect(readFileSync(outcome.path, 'utf8')).toContain(`Environment=CLAW_STATE_DIR=${state.dir}`);
      expect(ran).toEqual(['systemctl --user daemon-reload', 'systemctl --user enable --now claw-gateway.service']);
      expect(outcome.enabled).toBe(true);
      const removed = uninstallService(env);
      expect(removed.removed).toBe(true);
      expect(existsSync(outcome.path)).toBe(false);
    } finally {
      state.cleanup();
    }
  });

  it('reports a failed enable instead of claiming success', () => {
    const state = makeTempState();
    try {
      const { env } = environment('linux', { 'systemctl --user enable --now claw-gateway.service': 1 });
      expect(installService(state.paths, env, { enable: true }).enabled).toBe(false);
    } finally {
      state.cleanup();
    }
  });

  it('bootstraps a launchd agent on macOS', () => {
    const state = makeTempState();
    try {
      const { env, ran, home } = environment('darwin');
      const outcome = installService(state.paths, env, { enable: true });
      expect(outcome.path).toBe(join(home, 'Library', 'LaunchAgents', 'ai.claw.gateway.plist'));
      expect(ran).toEqual([`launchctl bootstrap gui/501 ${outcome.path}`]);
    } finally {
      state.cleanup();
    }
  });
});

describe('watchdog', () => {
  it('pings only while healthy and the event loop is responsive', () => {
    expect(shouldPingWatchdog({ lagMs: 5, healthy: true }, 1000)).toBe(true);
    expect(shouldPingWatchdog({ lagMs: 5000, healthy: true }, 1000)).toBe(false);
    expect(shouldPingWatchdog({ lagMs: 5, healthy: false }, 1000)).toBe(false);
  });

  it('withholds pings during a simulated stall and resumes after it', async () => {
    let lag = 2;
    const pings: string[] = [];
    const skipped: number[] = [];
    const stop = startWatchdog({
      intervalMs: 1000,
      lagThresholdMs: 250,
      health: () => true,
      notify: (m) => pings.push(m),
      sampleLag: () => lag,
      onSkip: (s) => skipped.push(s.lagMs),
    });
    try {
      const waitUntil = async (check: () => boolean) => {
        const deadline = Date.now() + 10_000;
        while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        expect(check()).toBe(true);
      };
      await waitUntil(() => pings.length >= 1);
      lag = 4000;
      const before = pings.length;
      await waitUntil(() => skipped.length >= 2);
      expect(pings.length).toBe(before);
      lag = 2;
      await waitUntil(() => pings.length > before);
      expect(pings.every((p) => p === 'WATCHDOG=1')).toBe(true);
    } finally {
      stop();
    }
  });

  it('reads the supervisor and watchdog interval from the environment', () => {
    expect(detectSupervisor({ NOTIFY_SOCKET: '/run/x' })).toBe('systemd');
    expect(detectSupervisor({ XPC_SERVICE_NAME: 'ai.claw.gateway' })).toBe('launchd');
    expect(detectSupervisor({})).toBe('none');
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '30000000' }, 7)).toBe(30_000);
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '8' }, 7)).toBeUndefined();
  });
});
