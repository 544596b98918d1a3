import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { describeStatus, type SkillRecord } from '../../source/skills/index.js';
import { makeSkillsEnv, simpleSkill, writeSkill, type SkillsEnv } from './skill-fixtures.js';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
let env: SkillsEnv | undefined;
afterEach(() => {
  env?.cleanup();
  env = undefined;
});

function statusOf(records: readonly SkillRecord[], name: string): string[] {
  return records.filter((record) => record.name === name).map((record) => `${record.source}: ${describeStatus(record.status)}`);
}

describe('skill discovery', () => {
  it('searches the six roots in precedence order; the first of a name wins and the rest are listed as shadowed', () => {
    env = makeSkillsEnv({ skills: { load: { extraDirs: ['~/extra-skills'] } } });
    const roots = {
      workspace: join(env.workspace, 'skills'),
      'workspace-agents': join(env.workspace, '.agents', 'skills'),
      managed: env.state.paths.skills,
      'personal-agents': join(env.home, '.agents', 'skills'),
      bundled: env.bundled,
      extra: join(env.home, 'extra-skills'),
    };
    const order = Object.keys(roots);
    // "shared" exists in every root; "only-<source>" only in its own.
    for (const [source, dir] of Object.entries(roots)) {
      simpleSkill(dir, 'shared', `The ${source} copy of shared.`);
      simpleSkill(dir, `only-${source.replace(/[^a-z]/g, '')}`);
    }
    const skills = env.service().agent('main');
    expect(skills.records.map((record) => record.source)).toEqual(order.flatMap((source) => [source, source]));
    expect(statusOf(skills.records, 'shared')).toEqual([
      'workspace: ready',
      ...order.slice(1).map((source) => `${source}: shadowed by ${join(roots.workspace, 'shared', 'SKILL.md')}`),
    ]);
    const offered = skills.ready.map((skill) => skill.name).sort();
    expect(offered).toEqual(['only-bundled', 'only-extra', 'only-managed', 'only-personalagents', 'only-workspace', 'only-workspaceagents', 'shared']);
    expect(skills.prompt.block).toContain('The workspace copy of shared.');
    expect(skills.prompt.block).not.toContain('The managed copy');
  });

  it('finds skill folders up to four levels deep, skips hidden folders and node_modules, and does not look inside a skill', () => {
    env = makeSkillsEnv();
    const root = join(env.workspace, 'skills');
    simpleSkill(join(root, 'a', 'b', 'c'), 'level-four');
    simpleSkill(join(root, 'a', 'b', 'c', 'd'), 'level-five');
    simpleSkill(join(root, '.hidden'), 'hidden');
    simpleSkill(join(root, 'node_modules'), 'from-modules');
    const outer = simpleSkill(root, 'outer');
    simpleSkill(join(outer, 'examples'), 'nested-example');
    const names = env
      .service()
      .agent('main')
      .records.map((record) => record.name);
    expect(names).toEqual(['level-four', 'outer']);
  });

  it('loads a skill folder in the layout other agents use (SKILL.md + scripts/ + references/) unchanged', () => {
    env = makeSkillsEnv();
    cpSync(join(FIXTURES, 'pdf-processing'), join(env.workspace, 'skills', 'pdf-processing'), { recursive: true });
    const skills = env.service().agent('main');
    const [record] = skills.records;
    expect(record && describeStatus(record.status)).toBe('ready');
    expect(record?.warnings).toEqual([]);
    expect(record?.manifest).toMatchObject({
      name: 'pdf-processing',
      license: 'Apache-2.0',
      allowedTools: ['Bash(python3:*)', 'Read'],
      metadata: { author: 'example-org', version: '1.0' },
      extra: { compatibility: 'Requires python3 and pdfplumber' },
      requires: { anyBins: ['python3', 'python'] },
      userInvocable: true,
    });
    expect(record?.body).toContain('Run `scripts/extract.py INPUT.pdf`');
    expect(skills.prompt.listed).toEqual(['pdf-processing']);
    expect(readdirSync(join(env.workspace, 'skills', 'pdf-processing')).sort()).toEqual(['SKILL.md', 'references', 'scripts']);
  });
});

describe('skills checked at load', () => {
  const broken: Array<[string, string, RegExp]> = [
    ['broken YAML', 'name: bad-yaml\ndescription: Use when: anything', /broken: invalid YAML in the frontmatter, line 3: .*quotes/],
    ['no name', 'description: "No name here."', /broken: the frontmatter has no name; add `name: no-name`/],
    ['no description', 'name: no-description', /broken: the frontmatter has no description/],
    [
      'a description over 1024 chars',
      `name: long-description\ndescription: ${'x'.repeat(1025)}`,
      /broken: the description is 1025 characters, over the limit of 1024/,
    ],
    ['a name with capitals', 'name: Bad_Name\ndescription: "A skill."', /broken: name "Bad_Name" must be lowercase letters, digits and single hyphens/],
    [
      'a requires that is not a map',
      'name: bad-requires\ndescription: "A skill."\nmetadata:\n  claw:\n    requires: [git]',
      /broken: metadata\.claw\.requires must be a mapping/,
    ],
    [
      'an unknown os',
      'name: bad-os\ndescription: "A skill."\nmetadata: {"claw": {"requires": {"os": ["beos"]}}}',
      /broken: metadata\.claw\.requires\.os has "beos"/,
    ],
  ];

  it.each(broken)('%s: not offered, and the reason is visible', (_label, frontmatter, reason) => {
    env = makeSkillsEnv();
    const folder = frontmatter.match(/name: ([a-z-]+)/)?.[1] ?? 'no-name';
    writeSkill(join(env.workspace, 'skills'), folder, frontmatter);
    const skills = env.service().agent('main');
    expect(skills.ready).toEqual([]);
    expect(skills.prompt.block).toBe('');
    expect(skills.records).toHaveLength(1);
    expect(describeStatus(skills.records[0]!.status)).toMatch(reason);
    expect(skills.prompt.notOffered[0]?.reason).toMatch(reason);
  });

  it('a SKILL.md without frontmatter, or with an unclosed one, is broken with the fix in the reason', () => {
    env = makeSkillsEnv();
    const root = join(env.workspace, 'skills');
    mkdirSync(join(root, 'plain'), { recursive: true });
    writeSkill(root, 'unclosed', 'name: unclosed');
    writeFileSync(join(root, 'plain', 'SKILL.md'), '# Just markdown\n');
    writeFileSync(join(root, 'unclosed', 'SKILL.md'), '---\nname: unclosed\ndescription: x\n');
    const records = env.service().agent('main').records;
    expect(records.map((record) => describeStatus(record.status))).toEqual([
      'broken: SKILL.md does not start with a "---" line; put the YAML frontmatter (name, description) between two "---" lines at the top',
      'broken: the frontmatter is not closed: add a "---" line after the YAML',
    ]);
  });

  it('reads a SKILL.md saved with a BOM and CRLF line endings', () => {
    env = makeSkillsEnv();
    mkdirSync(join(env.workspace, 'skills', 'windows'), { recursive: true });
    writeFileSync(
      join(env.workspace, 'skills', 'windows', 'SKILL.md'),
      '\uFEFF---\r\nname: windows\r\ndescription: Saved on Windows.\r\nmetadata:\r\n  claw:\r\n    requires: {os: [linux, macos, windows]}\r\n---\r\n# Body\r\n',
    );
    const [record] = env.service().agent('main').records;
    expect(record && describeStatus(record.status)).toBe('ready');
    expect(record?.manifest?.description).toBe('Saved on Windows.');
    expect(record?.body).toBe('# Body\r\n');
  });

  it('two folders of one root with the same name clash: neither is offered, each names the other', () => {
    env = makeSkillsEnv();
    const root = join(env.workspace, 'skills');
    simpleSkill(root, 'deploy', 'First.', 'deploy');
    simpleSkill(root, 'deploy', 'Second.', 'deploy-copy');
    simpleSkill(env.state.paths.skills, 'deploy', 'Lower root.');
    const records = env.service().agent('main').records;
    expect(records.map((record) => describeStatus(record.status))).toEqual([
      `broken: name clash: "deploy" is also declared by ${join(root, 'deploy-copy', 'SKILL.md')}`,
      `broken: name clash: "deploy" is also declared by ${join(root, 'deploy', 'SKILL.md')}`,
      `shadowed by ${join(root, 'deploy', 'SKILL.md')}`,
    ]);
    expect(records[1]!.warnings).toEqual(['name "deploy" does not match its folder "deploy-copy"; rename one so they match']);
  });

  it('unmet requirements make a skill "needs X"; met ones, entry env and `always` make it ready', () => {
    env = makeSkillsEnv({ skills: { entries: { 'with-entry-env': { env: { ENTRY_TOKEN: 's3cret-value' } } } }, memory: { enabled: true } });
    const root = join(env.workspace, 'skills');
    const meta = (requires: string, extra = '') => `metadata:\n  claw:\n    requires: ${requires}${extra}`;
    writeSkill(root, 'missing-bin', `name: missing-bin\ndescription: "x"\n${meta('{bins: [definitely-missing]}')}`);
    writeSkill(root, 'any-bin', `name: any-bin\ndescription: "x"\n${meta('{anyBins: [definitely-missing, node]}')}`);
    writeSkill(root, 'no-any-bin', `name: no-any-bin\ndescription: "x"\n${meta('{anyBins: [definitely-missing, also-missing]}')}`);
    writeSkill(root, 'missing-env', `name: missing-env\ndescription: "x"\n${meta('{env: [CLAW_TEST_UNSET_VAR]}')}`);
    writeSkill(root, 'with-entry-env', `name: with-entry-env\ndescription: "x"\n${meta('{env: [ENTRY_TOKEN]}')}`);
    writeSkill(root, 'wrong-os', `name: wrong-os\ndescription: "x"\n${meta(`{os: [${process.platform === 'darwin' ? 'linux' : 'macos'}]}`)}`);
    writeSkill(root, 'config-set', `name: config-set\ndescription: "x"\n${meta('{config: [memory.enabled]}')}`);
    writeSkill(root, 'config-unset', `name: config-unset\ndescription: "x"\n${meta('{config: [gateway.tls]}')}`);
    writeSkill(root, 'forced', `name: forced\ndescription: "x"\n${meta('{bins: [definitely-missing]}', '\n    always: true')}`);
    const skills = env.service().agent('main');
    const status = Object.fromEntries(skills.records.map((record) => [record.name, describeStatus(record.status)]));
    expect(status).toEqual({
      'any-bin': 'ready',
      'config-set': 'ready',
      'config-unset': 'needs config gateway.tls',
      forced: 'ready',
      'missing-bin': 'needs bin definitely-missing',
      'missing-env': 'needs env CLAW_TEST_UNSET_VAR',
      'no-any-bin': 'needs one of bins definitely-missing, also-missing',
      'with-entry-env': 'ready',
      'wrong-os': `needs os ${process.platform === 'darwin' ? 'linux' : 'darwin'} (this is ${process.platform})`,
    });
    expect(skills.prompt.listed.slice().sort()).toEqual(['any-bin', 'config-set', 'forced', 'with-entry-env']);
    expect(skills.prompt.listed[0]).toBe('forced');
    expect(skills.prompt.notOffered).toContainEqual({ name: 'missing-bin', reason: 'needs bin definitely-missing' });
    expect(skills.prompt.block).not.toContain('s3cret-value');
  });

  it('skills.entries.<name>.enabled false and an agent allowlist disable skills per agent', () => {
    env = makeSkillsEnv({
      agents: { defaults: { skills: ['alpha', 'beta'] }, list: [{ id: 'ops', skills: ['gamma'] }] },
      skills: { entries: { beta: { enabled: false } } },
    });
    for (const name of ['alpha', 'beta', 'gamma']) simpleSkill(env.state.paths.skills, name);
    const service = env.service();
    const main = Object.fromEntries(service.agent('main').records.map((record) => [record.name, describeStatus(record.status)]));
    expect(main).toEqual({
      alpha: 'ready',
      beta: 'disabled: skills.entries.beta.enabled is false',
      gamma: 'disabled: not in the skills allowlist of agent main',
    });
    expect(service.agent('ops').ready.map((skill) => skill.name)).toEqual(['gamma']);
  });

  it('reads metadata.claw before top-level keys and metadata.openclaw, and keeps unknown keys', () => {
    env = makeSkillsEnv();
    writeSkill(
      join(env.workspace, 'skills'),
      'layered',
      [
        'name: layered',
        'description: "x"',
        'argument-hint: "<top>"',
        'homepage: https://example.org/layered',
        'metadata:',
        '  claw: {user-invocable: false}',
        '  openclaw: {"user-invocable": true, "argument-hint": "<openclaw>", "disable-model-invocation": true}',
      ].join('\n'),
    );
    const manifest = env.service().agent('main').records[0]!.manifest!;
    expect(manifest).toMatchObject({
      userInvocable: false,
      argumentHint: '<top>',
      disableModelInvocation: true,
      extra: { homepage: 'https://example.org/layered' },
    });
  });
});
