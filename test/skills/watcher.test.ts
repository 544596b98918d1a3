import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SkillsChange, SkillsService } from '../../source/skills/index.js';
import { ManualClock } from '../support/manual-clock.js';
import { makeSkillsEnv, simpleSkill, type SkillsEnv } from './skill-fixtures.js';

let env: SkillsEnv | undefined;
let service: SkillsService | undefined;
afterEach(async () => {
  await service?.stop();
  env?.cleanup();
  env = undefined;
  service = undefined;
});

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function record(target: SkillsService): SkillsChange[] {
  const changes: SkillsChange[] = [];
  target.onChange((change) => changes.push(change));
  return changes;
}

describe('the skills watcher', () => {
  it('refreshes after a skill is added, edited, broken and removed, one notice per change', async () => {
    env = makeSkillsEnv({ skills: { load: { watchDebounceMs: 100 } } });
    const root = join(env.workspace, 'skills');
    simpleSkill(root, 'steady');
    service = env.service();
    await service.warm();
    const changes = record(service);
    const before = service.snapshot('main');

    const dir = simpleSkill(root, 'fresh', 'Fresh skill.');
    await until(() => changes.length === 1, 'the add');
    expect(changes[0]).toMatchObject({ agentId: 'main', changes: ['fresh added (ready)'], notice: 'Skills changed (agent main): fresh added (ready)' });
    expect(service.snapshot('main').listed).toEqual(['fresh', 'steady']);
    expect(before.listed).toEqual(['steady']);

    writeFileSync(join(dir, 'SKILL.md'), '---\nname: fresh\ndescription: "Fresher."\n---\nNew body.\n');
    await until(() => changes.length === 2, 'the edit');
    expect(changes[1]!.changes).toEqual(['fresh was edited']);
    expect(service.snapshot('main').block).toContain('Fresher.');

    writeFileSync(join(dir, 'SKILL.md'), '---\nname: fresh\n---\n');
    await until(() => changes.length === 3, 'the breakage');
    expect(changes[2]!.changes[0]).toMatch(/^fresh is now broken: the frontmatter has no description/);
    expect(service.snapshot('main').listed).toEqual(['steady']);

    rmSync(dir, { recursive: true });
    await until(() => changes.length === 4, 'the removal');
    expect(changes[3]!.changes).toEqual(['fresh removed']);
    // No event without a change on disk.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(changes).toHaveLength(4);
  });

  it('follows folders made after the start, a root removed and made again, and ignores files other than SKILL.md', async () => {
    env = makeSkillsEnv({ skills: { load: { watchDebounceMs: 50 } } });
    const root = join(env.workspace, 'skills');
    mkdirSync(root, { recursive: true });
    service = env.service();
    await service.warm();
    const changes = record(service);
    mkdirSync(join(root, 'category', 'deeper'), { recursive: true });
    simpleSkill(join(root, 'category', 'deeper'), 'nested');
    await until(() => service!.snapshot('main').listed.includes('nested'), 'the nested skill');
    const seen = changes.length;
    writeFileSync(join(root, 'category', 'deeper', 'nested', 'notes.txt'), 'not a skill file');
    writeFileSync(join(root, 'category', 'README.txt'), 'neither');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(changes).toHaveLength(seen);
    rmSync(root, { recursive: true });
    await until(() => service!.snapshot('main').listed.length === 0, 'the removed root');
    simpleSkill(root, 'again');
    await until(() => service!.snapshot('main').listed.includes('again'), 'the root made again');
    expect(changes.at(-1)?.changes).toEqual(['again added (ready)']);
  });

  it('notices a skills root that did not exist when it started', async () => {
    env = makeSkillsEnv({ skills: { load: { watchDebounceMs: 50 } } });
    service = env.service();
    await service.warm();
    const changes = record(service);
    expect(service.snapshot('main').listed).toEqual([]);
    simpleSkill(join(env.home, '.agents', 'skills'), 'personal');
    await until(() => service!.snapshot('main').listed.includes('personal'), 'the new root');
    expect(changes.at(-1)?.changes).toEqual(['personal added (ready)']);
  });

  it('waits for the debounce on the injected clock, and merges a burst into one rebuild', async () => {
    env = makeSkillsEnv({ skills: { load: { watchDebounceMs: 250 } } });
    const clock = new ManualClock();
    const root = join(env.workspace, 'skills');
    simpleSkill(root, 'seed');
    service = env.service({ clock });
    await service.warm();
    const changes = record(service);
    for (const name of ['one', 'two', 'three']) simpleSkill(root, name);
    await until(() => clock.pendingTimers() === 1 && service!.roots('main').length > 0, 'a scheduled rebuild');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(changes).toEqual([]);
    clock.advance(249);
    expect(changes).toEqual([]);
    clock.advance(1);
    expect(changes).toHaveLength(1);
    expect(changes[0]!.changes.sort()).toEqual(['one added (ready)', 'three added (ready)', 'two added (ready)']);
  });

  it('does not watch when skills.load.watch is false', async () => {
    env = makeSkillsEnv({ skills: { load: { watch: false } } });
    service = env.service();
    await service.warm();
    const changes = record(service);
    simpleSkill(join(env.workspace, 'skills'), 'unwatched');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(changes).toEqual([]);
    expect(service.snapshot('main').listed).toEqual([]);
    expect(service.refresh()[0]?.changes).toEqual(['unwatched added (ready)']);
  });
});
