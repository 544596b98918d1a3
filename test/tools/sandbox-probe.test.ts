import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { probeSandbox, probeSandboxInBackground } from '../../source/tools/index.js';
import { BWRAP_CANDIDATES, PROBE_ARGS } from '../../source/tools/sandbox/sandbox.js';

// This file's module state is its own (vitest isolates files): no probe ran before these.
describe('the exec sandbox probe in the background', () => {
  it('decides what the synchronous probe then reports, the same as bwrap itself says to the probe arguments', async () => {
    const bwrap = BWRAP_CANDIDATES.find((path) => existsSync(path));
    const starts = bwrap !== undefined && spawnSync(bwrap, PROBE_ARGS).status === 0;
    await probeSandboxInBackground();
    const status = probeSandbox();
    expect(status.kind).toBe(starts ? 'bubblewrap' : 'none');
    if (status.kind === 'bubblewrap') expect(status.path).toBe(bwrap);
    else expect(status.reason).toMatch(bwrap ? /bubblewrap cannot start here/ : /bubblewrap is not installed/);
    // Once decided, it is not asked again.
    await probeSandboxInBackground();
    expect(probeSandbox()).toBe(status);
  });
});
