/** What the service manager needs to run `claw gateway run`. */
export interface ServiceSpec {
  nodePath: string;
  cliEntry: string;
  stateDir: string;
  /** Extra environment, e.g. provider keys the user wants the daemon to see. */
  env?: Record<string, string>;
  /** Seconds without a watchdog ping before systemd restarts the gateway. */
  watchdogSec?: number;
}

export const SYSTEMD_UNIT_NAME = 'claw-gateway.service';
export const LAUNCHD_LABEL = 'ai.claw.gateway';

function systemdQuote(value: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(value) ? value : `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * A systemd user unit. Type=notify with a watchdog: the gateway says READY
 * once it listens and pings only while its event loop and lanes are healthy,
 * so a wedged gateway is restarted, not just a dead one.
 */
export function systemdUnit(spec: ServiceSpec): string {
  const env = { CLAW_STATE_DIR: spec.stateDir, ...spec.env };
  return [
    '[Unit]',
    'Description=claw gateway (personal AI assistant daemon)',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=notify',
    // systemd-notify runs as a child process, so it must be allowed to speak for us.
    'NotifyAccess=all',
    `ExecStart=${[spec.nodePath, spec.cliEntry, 'gateway', 'run'].map(systemdQuote).join(' ')}`,
    'ExecReload=/bin/kill -USR1 $MAINPID',
    ...Object.entries(env).map(([key, value]) => `Environment=${systemdQuote(`${key}=${value}`)}`),
    'Restart=always',
    'RestartSec=5',
    `WatchdogSec=${spec.watchdogSec ?? 30}`,
    'TimeoutStopSec=30',
    'KillMode=mixed',
    '',
    '[Install]',
    'WantedBy=default.target',
    '',
  ].join('\n');
}

function xmlEscape(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A launchd agent plist: started at login, restarted when it exits. */
export function launchdPlist(spec: ServiceSpec & { logDir: string }): string {
  const env = { CLAW_STATE_DIR: spec.stateDir, ...spec.env };
  const args = [spec.nodePath, spec.cliEntry, 'gateway', 'run'];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    '<dict>',
    `  <key>Label</key><string>${LAUNCHD_LABEL}</string>`,
    '  <key>ProgramArguments</key>',
    '  <array>',
    ...args.map((a) => `    <string>${xmlEscape(a)}</string>`),
    '  </array>',
    '  <key>EnvironmentVariables</key>',
    '  <dict>',
    ...Object.entries(env).map(([k, v]) => `    <key>${xmlEscape(k)}</key><string>${xmlEscape(v)}</string>`),
    '  </dict>',
    '  <key>RunAtLoad</key><true/>',
    '  <key>KeepAlive</key><true/>',
    '  <key>ThrottleInterval</key><integer>5</integer>',
    `  <key>StandardOutPath</key><string>${xmlEscape(`${spec.logDir}/gateway-stdio.log`)}</string>`,
    `  <key>StandardErrorPath</key><string>${xmlEscape(`${spec.logDir}/gateway-stdio.log`)}</string>`,
    '</dict>',
    '</plist>',
    '',
  ].join('\n');
}
