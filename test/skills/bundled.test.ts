import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledSkillsDir, describeStatus } from '../../source/skills/index.js';
import { makeSkillsEnv, simpleSkill, type SkillsEnv } from './skill-fixtures.js';

let env: SkillsEnv | undefined;
afterEach(() => {
  env?.cleanup();
  env = undefined;
});

const expected = ['claw-config', 'cron-jobs', 'memory-hygiene', 'skill-creator'];

describe('bundled skills', () => {
  it('the repository ships at least the four product skills', () => {
    expect(readdirSync(bundledSkillsDir()).sort()).toEqual(expect.arrayContaining(expected));
  });

  it.each(expected)('%s loads without warnings and is offered in the prompt with its location', (name) => {
    env = makeSkillsEnv();
    const skills = env.service({ bundledDir: bundledSkillsDir() }).agent('main');
    const record = skills.records.find((candidate) => candidate.name === name);
    expect(record && describeStatus(record.status)).toBe('ready');
    expect(record?.source).toBe('bundled');
    expect(record?.warnings).toEqual([]);
    expect(record?.body?.length ?? 0).toBeGreaterThan(500);
    expect(skills.prompt.form).toBe('full');
    expect(skills.prompt.block).toContain(`<name>${name}</name>`);
    expect(skills.prompt.block).toContain(`<location>${record?.file}</location>`);
  });

  it('a workspace skill of the same name overrides a bundled one', () => {
    env = makeSkillsEnv();
    simpleSkill(`${env.workspace}/skills`, 'cron-jobs', 'My own cron rules.');
    const skills = env.service({ bundledDir: bundledSkillsDir() }).agent('main');
    expect(skills.records.filter((record) => record.name === 'cron-jobs').map((record) => `${record.source} ${record.status.kind}`)).toEqual([
      'workspace ready',
      'bundled shadowed',
    ]);
    expect(skills.prompt.block).toContain('My own cron rules.');
  });
});
