import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../source/config/index.js';
import { watchSkillRoots, type SkillsWatcher } from '../../source/skills/watcher.js';

let dir: string | undefined;
let watcher: SkillsWatcher | undefined;
afterEach(async () => {
  await watcher?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = watcher = undefined;
});

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the skills watcher in a busy workspace', () => {
  it('a workspace without skills/ ignores churn of other files in its root without a rescan, and notices skills/ when it appears', async () => {
    dir = mkdtempSync(join(tmpdir(), 'claw-skills-churn-'));
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace);
    let changes = 0;
    watcher = watchSkillRoots({
      dirs: [join(workspace, 'skills')],
      debounceMs: 20,
      clock: systemClock,
      onChange: () => (changes += 1),
      onError: () => undefined,
    });
    const initial = watcher.rescans();
    for (let i = 0; i < 300; i += 1) writeFileSync(join(workspace, `churn-${i % 30}.log`), `line ${i}\n`);
    await settle(200);
    expect(watcher.rescans()).toBe(initial);
    expect(changes).toBe(0);

    mkdirSync(join(workspace, 'skills', 'fresh'), { recursive: true });
    writeFileSync(join(workspace, 'skills', 'fresh', 'SKILL.md'), '---\nname: fresh\ndescription: Fresh.\n---\n');
    for (let i = 0; i < 100 && changes === 0; i += 1) await settle(20);
    expect(changes).toBeGreaterThan(0);
    expect(watcher.rescans()).toBeGreaterThan(initial);
  });
});
