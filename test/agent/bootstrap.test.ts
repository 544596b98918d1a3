import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildSystemPrompt,
  promptTime,
  ensureWorkspaceSync,
  isFirstRunSync,
  loadBootstrapSync,
  markFirstRunCompleteSync,
  selectBootstrapFiles,
  truncateHeadTail,
  bootstrapFileNames,
} from '../../source/agent/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
afterEach(() => {
  state?.cleanup();
  state = undefined;
});

function workspace(): string {
  state = makeTempState();
  return state.paths.workspace('main');
}

describe('workspace', () => {
  it('is created from the template on first start without overwriting existing files', () => {
    const dir = workspace();
    const first = ensureWorkspaceSync(dir);
    expect(first.created.sort()).toEqual([...bootstrapFileNames].sort());
    expect(readFileSync(join(dir, 'AGENTS.md'), 'utf8')).toContain('never grants you permissions');
    writeFileSync(join(dir, 'USER.md'), 'Name: Ada\n');
    const second = ensureWorkspaceSync(dir);
    expect(second.created).toEqual([]);
    expect(readFileSync(join(dir, 'USER.md'), 'utf8')).toBe('Name: Ada\n');
  });

  it('shows BOOTSTRAP.md only until the first turn completes', () => {
    const dir = workspace();
    ensureWorkspaceSync(dir);
    expect(isFirstRunSync(dir)).toBe(true);
    const before = loadBootstrapSync(dir, { kind: 'main', firstRun: isFirstRunSync(dir) });
    expect(before.files.map((f) => f.name)).toContain('BOOTSTRAP.md');
    markFirstRunCompleteSync(dir, 1000);
    expect(isFirstRunSync(dir)).toBe(false);
    const after = loadBootstrapSync(dir, { kind: 'main', firstRun: isFirstRunSync(dir) });
    expect(after.files.map((f) => f.name)).not.toContain('BOOTSTRAP.md');
  });
});

describe('bootstrap selection', () => {
  it('orders the files and picks per session kind', () => {
    expect(selectBootstrapFiles('main', true)).toEqual([
      'AGENTS.md',
      'SOUL.md',
      'TOOLS.md',
      'IDENTITY.md',
      'USER.md',
      'HEARTBEAT.md',
      'BOOTSTRAP.md',
      'MEMORY.md',
    ]);
    expect(selectBootstrapFiles('direct', false)).toEqual(['AGENTS.md', 'SOUL.md', 'TOOLS.md', 'IDENTITY.md', 'USER.md', 'HEARTBEAT.md', 'MEMORY.md']);
    expect(selectBootstrapFiles('group', false)).not.toContain('MEMORY.md');
    for (const kind of ['subagent', 'cron'] as const) {
      expect(selectBootstrapFiles(kind, true)).toEqual(['AGENTS.md', 'SOUL.md', 'TOOLS.md', 'IDENTITY.md', 'USER.md']);
    }
  });
});

describe('bootstrap truncation', () => {
  it('keeps 70 % head and 20 % tail with a marker naming what was cut', () => {
    const text = 'H'.repeat(15_000) + 'M'.repeat(10_000) + 'T'.repeat(5_000);
    const cut = truncateHeadTail(text, 20_000, 'AGENTS.md');
    expect(cut.truncated).toBe(true);
    expect(cut.text.startsWith('H'.repeat(14_000))).toBe(true);
    expect(cut.text.endsWith('T'.repeat(4_000))).toBe(true);
    expect(cut.text).toContain(`${30_000 - 18_000} of 30000 characters of AGENTS.md cut`);
    expect(cut.text.length).toBeLessThanOrEqual(20_000);
  });

  it('reports raw vs injected chars per file and applies the total budget', () => {
    const dir = workspace();
    ensureWorkspaceSync(dir);
    writeFileSync(join(dir, 'AGENTS.md'), 'a'.repeat(50_000));
    writeFileSync(join(dir, 'SOUL.md'), 'short soul');
    writeFileSync(join(dir, 'MEMORY.md'), 'm'.repeat(5_000));
    const load = loadBootstrapSync(dir, { kind: 'main', firstRun: false, totalMax: 20_500 });
    const agents = load.files.find((f) => f.name === 'AGENTS.md');
    expect(agents).toMatchObject({ rawChars: 50_000, truncated: true });
    expect(agents?.injectedChars).toBeLessThanOrEqual(20_000);
    const soul = load.files.find((f) => f.name === 'SOUL.md');
    expect(soul).toMatchObject({ rawChars: 10, injectedChars: 10, truncated: false });
    expect(load.totalInjectedChars).toBeLessThanOrEqual(20_500);
    const last = load.files.at(-1);
    expect(last?.name).toBe('MEMORY.md');
    expect(last?.truncated).toBe(true);
    expect(last?.injectedChars).toBeLessThan(last?.rawChars ?? 0);
  });

  it('marks missing files instead of failing', () => {
    const dir = workspace();
    ensureWorkspaceSync(dir);
    writeFileSync(join(dir, 'HEARTBEAT.md'), '');
    const load = loadBootstrapSync(join(dir, 'nowhere'), { kind: 'main', firstRun: false });
    expect(load.files.every((f) => f.missing && f.injectedChars === 0)).toBe(true);
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });
});

describe('system prompt', () => {
  it('has safety rules, tools, skills slot, runtime facts and workspace files, with sizes per section', () => {
    const dir = workspace();
    ensureWorkspaceSync(dir);
    const bootstrap = loadBootstrapSync(dir, { kind: 'main', firstRun: false });
    const prompt = buildSystemPrompt({
      tools: [{ name: 'read', description: 'Read a file.' }],
      skillsBlock: '<available_skills>\n<skill name="git"/>\n</available_skills>',
      runtime: {
        agentId: 'main',
        model: 'fake/m',
        channel: 'tui',
        sessionKind: 'main',
        timeZone: 'UTC',
        host: 'box',
        os: 'linux',
        workspaceDir: dir,
        now: 'now',
      },
      bootstrap,
    });
    expect(prompt.text).toContain('never grants you permissions');
    expect(prompt.text).toContain('confirmation before destructive');
    // Tools are named once; their descriptions travel only in the request's tool list.
    expect(prompt.text).toContain('Available: read.');
    expect(prompt.text).not.toContain('Read a file.');
    expect(prompt.text).toContain('<available_skills>');
    expect(prompt.text).toContain('model: fake/m');
    expect(prompt.text).toContain('<file path="SOUL.md">');
    expect(prompt.sections.map((s) => s.name)).toEqual(['identity', 'safety', 'tools', 'skills', 'bootstrap', 'runtime']);
    const total = prompt.sections.reduce((sum, s) => sum + s.chars, 0);
    expect(prompt.text.length).toBe(total + 2 * (prompt.sections.filter((s) => s.chars > 0).length - 1));
  });

  it('gives back the same prompt while nothing in it changed, and a new one when any section did', () => {
    const dir = workspace();
    ensureWorkspaceSync(dir);
    const bootstrap = loadBootstrapSync(dir, { kind: 'main', firstRun: false });
    const runtime = { agentId: 'main', model: 'fake/m', channel: 'tui', sessionKind: 'main', timeZone: 'UTC', host: 'box', os: 'linux', workspaceDir: dir };
    const build = (now: string, tools = [{ name: 'read', description: 'Read a file.' }]) =>
      buildSystemPrompt({ tools, skillsBlock: '', runtime: { ...runtime, now }, bootstrap });
    const first = build(promptTime(Date.UTC(2026, 11, 2, 14, 16, 5)));
    expect(build(promptTime(Date.UTC(2026, 11, 2, 14, 16, 59)))).toBe(first);
    const later = build(promptTime(Date.UTC(2026, 11, 2, 14, 17, 0)));
    expect(later).not.toBe(first);
    expect(later.text).not.toBe(first.text);
    const moreTools = build(promptTime(Date.UTC(2026, 11, 2, 14, 17, 0)), [{ name: 'exec', description: 'Run a command.' }]);
    expect(moreTools.text).toContain('Available: exec.');
    expect(moreTools.text).not.toContain('Available: read.');
  });

  it('states the time to the minute', () => {
    const text = promptTime(new Date(2026, 11, 2, 9, 5, 42).getTime());
    expect(text).toMatch(/^\w{3} Dec 02 2026 09:05 GMT[+-]\d{4}/);
    expect(text).not.toContain(':42');
  });
});
