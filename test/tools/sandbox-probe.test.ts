import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { probeSandbox, probeSandboxInBackground } from '../../source/tools/index.js';

// This file's module state is its own (vitest isolates files): no probe ran before these.
describe('the exec sandbox probe in the background', () => {
  it('decides what the synchronous probe then reports, the same as bwrap itself says', async () => {
    const bwrap = ['/usr/bin/bwrap', '/usr/local/bin/bwrap', '/bin/bwrap'].find((path) => existsSync(path));
    const starts =
      bwrap !== undefined &&
      spawnSync(bwrap, [
        '--ro-bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--proc',
        '/proc',
        '--unshare-net',
        '--unshare-pid',
        '--die-with-parent',
        '--new-session',
        '--as-pid-1',
        '/bin/true',
      ]).status === 0;
    const pending = probeSandboxInBackground();
    await pending;
    const status = probeSandbox();
    expect(status.kind).toBe(starts ? 'bubblewrap' : 'none');
    if (status.kind === 'bubblewrap') expect(status.path).toBe(bwrap);
    else expect(status.reason).toMatch(bwrap ? /bubblewrap cannot start here/ : /bubblewrap is not installed/);
    // Once decided, it is not asked again.
    await probeSandboxInBackground();
    expect(probeSandbox()).toBe(status);
  });
});
