import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinCommands, CommandRegistry } from '../../source/agent/index.js';
import { createSkillsSlashCommand, skillsDoctorCheck, skillSlashCommand } from '../../source/skills/index.js';
import { makeSkillsEnv, simpleSkill, writeSkill, type SkillsEnv } from './skill-fixtures.js';

let env: SkillsEnv | undefined;
afterEach(() => {
  env?.cleanup();
  env = undefined;
});

describe('user-invocable skills as slash commands', () => {
  it('lists ready user-invocable skills with their argument hint and builds the turn message from the arguments', () => {
    env = makeSkillsEnv();
    const root = join(env.workspace, 'skills');
    writeSkill(
      root,
      'release-notes',
      'name: release-notes\ndescription: "Write release notes from git history."\nmetadata:\n  claw:\n    argument-hint: "<from-tag> [to-tag]"',
      '# Release notes\nCompare $ARGUMENTS and group the commits by type.\n',
    );
    writeSkill(root, 'deploy', 'name: deploy\ndescription: "Deploy the site."\ndisable-model-invocation: true', '# Deploy\nRun scripts/deploy.sh.\n');
    writeSkill(root, 'internal', 'name: internal\ndescription: "Model only."\nmetadata: {"claw": {"user-invocable": false}}');
    writeSkill(root, 'broken-one', 'name: broken-one');
    writeSkill(root, 'needs-bin', 'name: needs-bin\ndescription: "x"\nmetadata: {"claw": {"requires": {"bins": ["definitely-missing"]}}}');
    const service = env.service();
    const { commands, skipped } = service.commands('main');
    expect(commands.map(({ name, description, argumentHint }) => ({ name, description, argumentHint }))).toEqual([
      { name: 'deploy', description: 'Deploy the site.', argumentHint: '' },
      { name: 'release-notes', description: 'Write release notes from git history.', argumentHint: '<from-tag> [to-tag]' },
    ]);
    expect(skipped).toEqual([]);
    const message = commands.find((command) => command.name === 'release-notes')!.buildMessage('  v1.2.0 v1.3.0 ');
    expect(message).toContain('The user invoked the skill "release-notes" with /release-notes.');
    expect(message).toContain(`<skill name="release-notes" location="${join(root, 'release-notes', 'SKILL.md')}">`);
    expect(message).toContain('Compare v1.2.0 v1.3.0 and group the commits by type.');
    expect(message).toContain('Arguments: v1.2.0 v1.3.0');
    expect(message).toContain(`Paths in it are relative to ${join(root, 'release-notes')}.`);
    // A user-only skill works as a command although the model never sees it.
    expect(service.snapshot('main').listed).toEqual(['internal', 'release-notes']);
    expect(service.snapshot('main').notOffered).toContainEqual({ name: 'deploy', reason: 'user-only: /deploy' });
    expect(commands.find((command) => command.name === 'deploy')!.buildMessage('')).toContain(
      'No arguments were given; if the skill needs input, ask the user for it.',
    );
  });

  it('/name args through the real command registry starts a turn whose message carries the skill and the arguments', async () => {
    env = makeSkillsEnv();
    writeSkill(
      join(env.workspace, 'skills'),
      'summarise',
      'name: summarise\ndescription: "Summarise a file."\nargument-hint: "<path>"',
      '# Summarise\nRead the file and write five bullets.\n',
    );
    const started: Array<{ sessionKey: string; message: string }> = [];
    const startTurn = async (sessionKey: string, message: string) => {
      started.push({ sessionKey, message });
      return { runId: `run-${started.length}` };
    };
    const registry = new CommandRegistry([
      ...builtinCommands,
      ...env
        .service()
        .commands('main')
        .commands.map((command) => skillSlashCommand(command, startTurn)),
    ]);
    const noModels = { listModels: async () => [], cooldowns: () => [] } as never;
    expect((await registry.info(noModels)).find((info) => info.name === 'summarise')).toEqual({
      name: 'summarise',
      aliases: [],
      args: '<path>',
      description: 'Summarise a file.',
    });
    const unused = async (): Promise<never> => {
      throw new Error('not used');
    };
    const context = {
      sessionKey: 'agent:main:main',
      host: { session: unused, patch: unused, newSession: unused, reset: unused, abort: unused, retry: unused, turnSession: unused },
      providers: undefined as never,
      resolveModel: unused,
      resolveThinking: () => 'off' as const,
      runShell: unused,
      lastError: () => undefined,
      contextWindow: unused,
      contextReport: unused,
    };
    const result = await registry.run('/summarise notes/today.md please', context);
    expect(result).toEqual({ reply: 'Running the summarise skill with: notes/today.md please.', data: { runId: 'run-1', skill: 'summarise' } });
    expect(started).toHaveLength(1);
    expect(started[0]!.sessionKey).toBe('agent:main:main');
    expect(started[0]!.message).toContain('Read the file and write five bullets.');
    expect(started[0]!.message).toContain('Arguments: notes/today.md please');
  });

  it('a skill named like a built-in command gets no command, with a visible reason', () => {
    env = makeSkillsEnv();
    simpleSkill(join(env.workspace, 'skills'), 'status');
    const reserved = new Set(builtinCommands.flatMap((command) => [command.name, ...command.aliases]));
    const { commands, skipped } = env.service().commands('main', reserved);
    expect(commands).toEqual([]);
    expect(skipped).toEqual([{ name: 'status', reason: '/status is already a built-in command; the model can still use the skill' }]);
  });

  it('/skills shows every skill of the session agent with its status, through the real command registry', async () => {
    env = makeSkillsEnv();
    const root = join(env.workspace, 'skills');
    simpleSkill(root, 'alpha');
    writeSkill(root, 'bad', 'name: bad\ndescription: Use when: x');
    simpleSkill(env.state.paths.skills, 'alpha');
    const registry = new CommandRegistry([...builtinCommands, createSkillsSlashCommand(env.service())]);
    const unused = async (): Promise<never> => {
      throw new Error('not used');
    };
    const { reply, data } = await registry.run('/skills', {
      sessionKey: 'agent:main:main',
      host: { session: unused, patch: unused, newSession: unused, reset: unused, abort: unused, retry: unused, turnSession: unused },
      providers: undefined as never,
      resolveModel: unused,
      resolveThinking: () => 'off' as const,
      runShell: unused,
      lastError: () => undefined,
      contextWindow: unused,
      contextReport: unused,
    });
    const lines = reply.split('\n');
    expect(lines[0]).toMatch(/^NAME\s+SOURCE\s+STATUS$/);
    expect(lines[1]).toMatch(/^alpha\s+workspace\s+ready$/);
    expect(lines[2]).toMatch(/^bad\s+workspace\s+broken: invalid YAML in the frontmatter, line 3/);
    expect(lines[3]).toMatch(new RegExp(`^alpha\\s+managed\\s+shadowed by ${join(root, 'alpha', 'SKILL.md')}$`));
    expect(reply).toContain('prompt: 1 skills in the full form');
    expect(data).toMatchObject({ agentId: 'main', prompt: { form: 'full', listed: ['alpha'], omitted: [] } });
  });
});

describe('the doctor line for skills', () => {
  it('is ok with a summary, and warns with the fix when a skill is broken or left out of the prompt', () => {
    env = makeSkillsEnv({ skills: { limits: { maxPromptChars: 400 } } });
    const root = join(env.workspace, 'skills');
    simpleSkill(root, 'alpha');
    expect(skillsDoctorCheck(env.service().agent('main'))).toMatchObject({
      name: 'skills',
      status: 'ok',
      detail: expect.stringMatching(/^1 ready of 1 found, prompt block \d+ chars \((full|compact)\)$/),
    });
    for (let i = 0; i < 10; i += 1) simpleSkill(root, `extra-${i}`);
    expect(skillsDoctorCheck(env.service().agent('main'))).toMatchObject({
      status: 'warn',
      detail: expect.stringContaining('left out of the prompt'),
      fix: expect.stringContaining('skills.limits.maxPromptChars'),
    });
    writeSkill(root, 'bad', 'name: bad');
    expect(skillsDoctorCheck(env.service().agent('main'))).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/^1 broken \(bad: broken: the frontmatter has no description/),
      fix: expect.stringContaining('claw skills check'),
    });
  });
});
