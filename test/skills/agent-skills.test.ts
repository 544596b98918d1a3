import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { defineTool, toolOk, type ToolDefinition } from '../../source/tools/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer, RecordedRequest } from '../support/fake-llm-common.js';
import { makeSkillsEnv, simpleSkill, type SkillsEnv } from './skill-fixtures.js';
import { startSkillsAgent } from './skills-agent.js';

const FIXTURES = fileURLToPath(new URL('./fixtures', import.meta.url));
let env: SkillsEnv | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await llm?.close();
  env?.cleanup();
  env = undefined;
  llm = undefined;
});

function system(request: RecordedRequest | undefined): string {
  const messages = (request?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const found = messages.find((message) => message.role === 'system');
  return typeof found?.content === 'string' ? found.content : '';
}

function lastToolResult(request: RecordedRequest | undefined): string {
  const messages = (request?.body.messages ?? []) as Array<{ role: string; content: unknown }>;
  const found = messages.filter((message) => message.role === 'tool').at(-1);
  return typeof found?.content === 'string' ? found.content : JSON.stringify(found?.content ?? '');
}

describe('skills in a real agent turn', () => {
  it('lists ready skills in the prompt; the skill tool and read load one on demand; the skill folder is not writable', async () => {
    env = makeSkillsEnv();
    llm = await startFakeOpenAI();
    // A managed skill (~/.claw/skills) lies outside the workspace: readable through the skill's read root only.
    const dir = join(env.state.paths.skills, 'pdf-processing');
    cpSync(join(FIXTURES, 'pdf-processing'), dir, { recursive: true });
    const agent = startSkillsAgent(env, llm);
    llm.reply(
      { toolCalls: [{ id: 'c1', name: 'skill', arguments: { name: 'pdf-processing' } }] },
      { toolCalls: [{ id: 'c2', name: 'read', arguments: { path: join(dir, 'references', 'FORMS.md') } }] },
      { toolCalls: [{ id: 'c3', name: 'write', arguments: { path: join(dir, 'SKILL.md'), content: 'overwritten' } }] },
      { text: 'Done.' },
    );
    const outcome = await agent.turn('extract the text of report.pdf');
    expect(outcome).toMatchObject({ status: 'completed', text: 'Done.' });
    const prompt = system(llm.requests[0]);
    expect(prompt).toContain('<available_skills>');
    expect(prompt).toContain(`<location>${join(dir, 'SKILL.md')}</location>`);
    expect(prompt).toContain('load that one skill (the `skill` tool with its name, or `read` its location)');
    expect(lastToolResult(llm.requests[1])).toContain('Run `scripts/extract.py INPUT.pdf`');
    expect(lastToolResult(llm.requests[1])).toContain('- scripts/extract.py');
    expect(lastToolResult(llm.requests[1])).toContain('- references/FORMS.md');
    expect(lastToolResult(llm.requests[2])).toContain("List the form's field names.");
    expect(lastToolResult(llm.requests[3])).toContain('is outside the workspace');
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toContain('name: pdf-processing');
  });

  it('the skill tool explains why a skill is not available', async () => {
    env = makeSkillsEnv();
    llm = await startFakeOpenAI();
    const root = join(env.workspace, 'skills');
    mkdirSync(join(root, 'needs-gh'), { recursive: true });
    writeFileSync(
      join(root, 'needs-gh', 'SKILL.md'),
      '---\nname: needs-gh\ndescription: "x"\nmetadata: {"claw": {"requires": {"bins": ["definitely-missing"]}}}\n---\nbody\n',
    );
    const agent = startSkillsAgent(env, llm);
    llm.reply(
      {
        toolCalls: [
          { id: 'c1', name: 'skill', arguments: { name: 'needs-gh' } },
          { id: 'c2', name: 'skill', arguments: { name: 'nope' } },
        ],
      },
      { text: 'ok' },
    );
    await agent.turn('go');
    const body = JSON.stringify(llm.requests[1]?.body.messages);
    expect(body).toContain('The skill \\"needs-gh\\" is not available: needs bin definitely-missing.');
    expect(body).toContain('There is no skill named \\"nope\\"');
    expect(system(llm.requests[0])).not.toContain('needs-gh');
  });

  it('over the budget: the compact form, and /context list names the skills left out', async () => {
    env = makeSkillsEnv();
    llm = await startFakeOpenAI();
    const root = join(env.workspace, 'skills');
    for (let i = 0; i < 30; i += 1) simpleSkill(root, `skill-${String(i).padStart(2, '0')}`, `A long description number ${i}. `.repeat(8));
    const agent = startSkillsAgent(env, llm, { skills: { limits: { maxPromptChars: 2_500 } } });
    const snapshot = agent.skills.snapshot('main');
    expect(snapshot.form).toBe('compact');
    expect(snapshot.block.length).toBeLessThanOrEqual(2_500);
    expect(snapshot.block).not.toContain('A long description');
    expect(snapshot.omitted.length).toBeGreaterThan(0);
    expect([...snapshot.listed, ...snapshot.omitted].sort()).toEqual(Array.from({ length: 30 }, (_, i) => `skill-${String(i).padStart(2, '0')}`));
    const { reply } = await agent.command('/context list');
    // The same size `/skills` and `claw skills list` give: the block's own, the section's instructions apart.
    const size = snapshot.block.length.toLocaleString('en-US');
    expect(reply).toMatch(new RegExp(`skills block   ${size} chars, ${snapshot.listed.length} skills \\(compact form\\) \\+ [\\d,]+ chars of instructions`));
    expect(reply).toContain(`left out (over skills.limits.maxPromptChars): ${snapshot.omitted.join(', ')}`);
  });

  it('a skill added mid-session is offered from the next turn; the running turn keeps its snapshot', async () => {
    env = makeSkillsEnv();
    llm = await startFakeOpenAI();
    const root = join(env.workspace, 'skills');
    simpleSkill(root, 'first');
    let agentRef: ReturnType<typeof startSkillsAgent> | undefined;
    let refreshed = false;
    const addSkill: ToolDefinition = defineTool({
      name: 'add_skill_now',
      group: 'fs',
      risk: 'low',
      description: 'test: writes a new skill and waits for the watcher',
      input: z.strictObject({}),
      async execute() {
        const changed = new Promise<void>((resolve) => agentRef!.skills.onChange(() => resolve()));
        simpleSkill(root, 'late-arrival');
        await changed;
        refreshed = true;
        return toolOk('added');
      },
    }) as unknown as ToolDefinition;
    const agent = startSkillsAgent(env, llm, {}, [addSkill]);
    agentRef = agent;
    await agent.skills.warm();
    try {
      llm.reply({ toolCalls: [{ id: 'c1', name: 'add_skill_now', arguments: {} }] }, { text: 'added it' }, { text: 'second turn' });
      await agent.turn('add a skill');
      expect(refreshed).toBe(true);
      expect(system(llm.requests[0])).not.toContain('late-arrival');
      // Same turn, after the change: still the snapshot it started with.
      expect(system(llm.requests[1])).toBe(system(llm.requests[0]));
      await agent.turn('and now?');
      expect(system(llm.requests[2])).toContain('<name>late-arrival</name>');
    } finally {
      await agent.skills.stop();
    }
  });
});

describe('skills and the session tools', () => {
  it('a session without skill and read gets no skills block, and the report says why', async () => {
    env = makeSkillsEnv();
    llm = await startFakeOpenAI();
    simpleSkill(join(env.workspace, 'skills'), 'alpha');
    const agent = startSkillsAgent(env, llm, { tools: { profile: 'messaging' } });
    const report = await agent.runtime.contextReport({ agentId: 'main', kind: 'main', channel: 'tui', model: undefined });
    expect(report.sections.find((section) => section.name === 'skills')?.chars).toBe(0);
    expect(report.skills).toMatchObject({
      block: '',
      form: 'none',
      listed: [],
      notOffered: [{ name: 'alpha', reason: 'this session has neither the skill nor the read tool' }],
    });
    const full = startSkillsAgent(env, llm);
    expect((await full.runtime.contextReport({ agentId: 'main', kind: 'main', channel: 'tui', model: undefined })).skills.listed).toEqual(['alpha']);
  });
});
