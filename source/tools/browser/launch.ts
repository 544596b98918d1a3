import { accessSync, chmodSync, constants, mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { ExecSandbox } from '../exec/exec-tool.js';
import { confineCommand } from '../sandbox/exec-sandbox.js';

const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** `tools.browser.executablePath`, or the first Chromium on PATH; undefined when there is none. */
export function findChromium(configured: string | undefined, pathVariable = process.env.PATH ?? ''): string | undefined {
  if (configured) return configured;
  for (const dir of pathVariable.split(delimiter).filter(Boolean)) {
    for (const name of CANDIDATES) {
      const file = join(dir, name);
      try {
        accessSync(file, constants.X_OK);
        return file;
      } catch {}
    }
  }
  return undefined;
}

export const CHROMIUM_MISSING =
  'No Chromium found: install it (Debian/Ubuntu: `sudo apt-get install -y chromium`) or set tools.browser.executablePath in claw.json to a Chromium or Chrome binary.';

/**
 * Chromium's switches: everything through the guard (`<-loopback>` stops
 * loopback from bypassing it), no UDP that could go around it (QUIC, WebRTC),
 * none of the background traffic a closed network refuses by the dozen.
 * Chromium's own sandbox is off because bubblewrap already is one and the two
 * cannot nest without user namespaces inside.
 */
export function chromiumArgs(proxy: string): string[] {
  return [
    `--proxy-server=${proxy}`,
    '--proxy-bypass-list=<-loopback>',
    '--disable-quic',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-breakpad',
    '--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider',
  ];
}

function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export type BrowserExecutable = { path: string; sandboxed: boolean } | { error: string };

/**
 * The executable Playwright starts: a script that runs Chromium inside the
 * exec sandbox's view of the machine — its profile and downloads folders
 * writable, the state dir and secret folders gone, home empty. Without
 * bubblewrap the browser runs only where the owner turned the sandbox off
 * on purpose (`tools.exec.sandbox.mode: "off"`).
 */
export function sandboxedChromium(options: {
  chromium: string;
  sandbox: ExecSandbox;
  sandboxOff: boolean;
  /** `<state>/browser/<agent>`: the profile and the launcher script live here. */
  dir: string;
  writable: readonly string[];
}): BrowserExecutable {
  mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  for (const dir of options.writable) mkdirSync(dir, { recursive: true });
  const wrapped = confineCommand(options.sandbox, options.chromium, [], {
    cwd: options.dir,
    writable: [options.dir, ...options.writable],
    readOnly: [],
    network: true,
  });
  if ('unavailable' in wrapped) {
    if (options.sandboxOff) return { path: options.chromium, sandboxed: false };
    return {
      error: `The browser runs only inside the exec sandbox, which cannot start here (${wrapped.unavailable}). Install bubblewrap (\`sudo apt-get install -y bubblewrap\`), or set tools.exec.sandbox.mode to "off" to run it unsandboxed on purpose.`,
    };
  }
  const script = join(options.dir, 'chromium-sandboxed.sh');
  const line = [wrapped.file, ...wrapped.args].map(shellQuote).join(' ');
  writeFileSync(script, `#!/bin/sh\n# Written by claw at each browser start: Chromium inside the exec sandbox.\nexec ${line} "$@"\n`, { mode: 0o700 });
  chmodSync(script, 0o700);
  return { path: script, sandboxed: true };
}
