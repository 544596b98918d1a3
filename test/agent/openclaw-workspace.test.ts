import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { accountContext } from '../../source/agent/context/index.js';
import { BootstrapCache, buildSystemPrompt, ensureWorkspaceSync, loadBootstrapSync, localDay, workspaceTemplateDir } from '../../source/agent/index.js';
import { startTestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
afterEach(() => {
  state?.cleanup();
  state = undefined;
});

function workspace(files: Record<string, string> = {}): string {
  state = makeTempState();
  const dir = state.paths.workspace('main');
  mkdirSync(join(dir, 'memory'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const DAY = 86_400_000;
// Noon local time, so "yesterday" is never a daylight-saving edge away.
const now = new Date(2026, 10, 18, 12, 0, 0).getTime();

describe('a workspace OpenClaw already onboarded', () => {
  it.each([
    ['MEMORY.md', { 'MEMORY.md': '# Memory\n\n- Ada prefers short replies.\n' }],
    ['a memory/ folder', { 'memory/2026-11-01.md': '# Notes\n' }],
    ['a filled-in USER.md', { 'USER.md': '# USER.md\n\n- Name: Ada\n' }],
    ['a filled-in IDENTITY.md', { 'IDENTITY.md': '# IDENTITY.md\n\n- Name: Nova\n' }],
  ])('with %s gets no BOOTSTRAP.md, so the agent does not onboard the user again', (_what, files) => {
    state = makeTempState();
    const dir = state.paths.workspace('main');
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    const setup = ensureWorkspaceSync(dir);
    expect(setup.created).not.toContain('BOOTSTRAP.md');
    expect(existsSync(join(dir, 'BOOTSTRAP.md'))).toBe(false);
    const load = loadBootstrapSync(dir, { kind: 'main', firstRun: true });
    expect(load.files.find((file) => file.name === 'BOOTSTRAP.md')?.missing).toBe(true);
  });

  it('a fresh folder, or one with an empty USER.md, still gets BOOTSTRAP.md', () => {
    state = makeTempState();
    const fresh = join(state.dir, 'fresh');
    expect(ensureWorkspaceSync(fresh).created).toContain('BOOTSTRAP.md');
    const empty = join(state.dir, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'USER.md'), '\n');
    expect(ensureWorkspaceSync(empty).created).toContain('BOOTSTRAP.md');
  });
});

describe('YAML front matter in bootstrap files', () => {
  it('is stripped; the body is injected and the raw size still reported', () => {
    const raw = '---\nsummary: Workspace rules\nread_when:\n  - bootstrapping\n---\n# AGENTS.md\n\nWork in small steps.\n';
    const dir = workspace({ 'AGENTS.md': raw, 'SOUL.md': 'No front matter here.\n---\nA rule line.\n' });
    const load = loadBootstrapSync(dir, { kind: 'main', firstRun: false });
    const agents = load.files.find((file) => file.name === 'AGENTS.md')!;
    expect(agents.content).toBe('# AGENTS.md\n\nWork in small steps.\n');
    expect(agents.rawChars).toBe(raw.length);
    expect(agents.injectedChars).toBe(agents.content.length);
    expect(load.files.find((file) => file.name === 'SOUL.md')!.content).toBe('No front matter here.\n---\nA rule line.\n');
  });
});

describe('recent daily notes', () => {
  const today = localDay(now);
  const yesterday = localDay(now - DAY);
  const older = localDay(now - 2 * DAY);

  it('injects today and yesterday into the main session, newest first, within 1,200 per file and 2,800 in all', () => {
    const dir = workspace();
    writeFileSync(join(dir, 'memory', `${older}.md`), 'old note\n');
    writeFileSync(join(dir, 'memory', `${yesterday}.md`), `# ${yesterday}\n${'y'.repeat(3000)}\nlast line of yesterday\n`);
    writeFileSync(join(dir, 'memory', `${yesterday}-standup.md`), `standup ${'s'.repeat(1500)}`);
    writeFileSync(join(dir, 'memory', `${today}.md`), `# ${today}\n\nMet Dana about the ledger export.\n`);
    const load = loadBootstrapSync(dir, { kind: 'main', firstRun: false, now });
    const notes = load.files.filter((file) => file.name.startsWith('memory/'));
    expect(notes.map((file) => file.name)).toEqual([`memory/${today}.md`, `memory/${yesterday}.md`, `memory/${yesterday}-standup.md`]);
    for (const note of notes) expect(note.injectedChars).toBeLessThanOrEqual(1200);
    expect(notes.reduce((sum, note) => sum + note.injectedChars, 0)).toBeLessThanOrEqual(2800);
    // Daily notes grow at the bottom: the newest lines are the ones kept.
    expect(notes[1]!.content).toContain('last line of yesterday');
    expect(notes[1]!.truncated).toBe(true);
    expect(notes[0]!.content).toContain('Met Dana');

    const prompt = buildSystemPrompt({
      tools: [],
      skillsBlock: '',
      runtime: {
        agentId: 'main',
        model: 'm',
        channel: 'tui',
        sessionKind: 'main',
        timeZone: 'UTC',
        host: 'h',
        os: 'linux',
        workspaceDir: dir,
        now: new Date(now).toString(),
      },
      bootstrap: load,
    });
    expect(prompt.text).toContain(`<file path="memory/${today}.md">`);
    const account = accountContext({ window: 100_000, family: 'openai', systemPrompt: prompt, bootstrap: load.files, tools: [], messages: [] });
    expect(account.parts.find((part) => part.name === `bootstrap:memory/${today}.md`)?.tokens).toBeGreaterThan(0);
  });

  it('leaves them out of other sessions', () => {
    const dir = workspace();
    writeFileSync(join(dir, 'memory', `${today}.md`), 'private day note\n');
    for (const kind of ['group', 'subagent', 'cron', 'direct'] as const) {
      expect(
        loadBootstrapSync(dir, { kind, firstRun: false, now }).files.some((file) => file.name.startsWith('memory/')),
        kind,
      ).toBe(false);
    }
  });

  it('shows a note written after the last turn on the next one', () => {
    const dir = workspace();
    const cache = new BootstrapCache();
    expect(cache.load(dir, { kind: 'main', firstRun: false, now }).files.some((file) => file.name.startsWith('memory/'))).toBe(false);
    writeFileSync(join(dir, 'memory', `${today}.md`), 'new today\n');
    expect(cache.load(dir, { kind: 'main', firstRun: false, now }).files.find((file) => file.name === `memory/${today}.md`)?.content).toBe('new today\n');
    expect(cache.load(dir, { kind: 'main', firstRun: false, now: now + 2 * DAY }).files.some((file) => file.name.startsWith('memory/'))).toBe(false);
  });
});

describe('the workspace template', () => {
  it('names in TOOLS.md only tools that exist', async () => {
    // The daemon's registry: the tools runtime's built-ins plus what core adds (sessions, skill).
    const gateway = await startTestGateway({ core: {} });
    const registered = new Set(gateway.core.tools.registry.list().map((tool) => tool.name));
    await gateway.stop();
    const text = readFileSync(join(workspaceTemplateDir(), 'TOOLS.md'), 'utf8');
    const named = [...text.matchAll(/`([a-z][a-z_]*)`/g)].map((match) => match[1]!);
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((name) => !registered.has(name))).toEqual([]);
  });
});
