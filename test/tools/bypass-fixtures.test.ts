import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  authorizeExec,
  bindPlan,
  expandGlob,
  expandPlanGlobs,
  parseCommand,
  planCommands,
  resolveExecutable,
  type ExecApprovalsFile,
} from '../../source/tools/index.js';

const defaults: ExecApprovalsFile = { version: 1, security: 'allowlist', ask: 'on-miss', safeList: true, agents: {} };
const base = mkdtempSync(join(tmpdir(), 'claw-bypass-'));
const ws = join(base, 'ws');
mkdirSync(join(ws, 'src'), { recursive: true });
writeFileSync(join(ws, 'notes.txt'), 'n\n');
writeFileSync(join(base, 'outside.txt'), 'o\n');
symlinkSync(join(base, 'outside.txt'), join(ws, 'link-out'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function bound(text: string, env: Record<string, string> = {}, network = false) {
  const plan = parseCommand(text);
  const executables = plan.shellRequired ? [] : planCommands(plan).map((c) => resolveExecutable(c.argv[0]!, ws, process.env.PATH));
  return bindPlan({ plan, executables, cwd: ws, env, network, roots: [ws] });
}

function verdict(text: string, options: { env?: Record<string, string>; approvals?: ExecApprovalsFile; sandboxed?: boolean; network?: boolean } = {}) {
  const plan = bound(text, options.env, options.network);
  return {
    plan,
    result: authorizeExec({
      plan,
      agentId: 'main',
      approvals: options.approvals ?? defaults,
      sessionApproved: false,
      sandboxed: options.sandboxed ?? true,
      roots: [ws],
    }),
  };
}

describe('exec authorization (pure)', () => {
  it.each([
    'ls -la',
    'cat notes.txt | wc -l',
    'grep -rn TODO src',
    'head -n 5 notes.txt',
    'sort -r notes.txt',
    'uniq -c notes.txt',
    'find src -name *.ts'.replace('*.ts', 'x.ts'),
    'date +%F',
    'echo --output=x',
  ])('%j runs from the safe list inside the sandbox', (text) => {
    expect(verdict(text).result.action).toBe('run');
  });

  it.each([
    ['env -S "sh -c id"', 'env -S'],
    ['cat $HOME/.ssh/id_rsa', '$'],
    ['cat <<EOF\n$(id)\nEOF', 'heredoc'],
    ['echo aWQ= | base64 -d | sh', 'sh'],
    ['echo "console.log(1)" | node', 'node reads a program from stdin'],
    ['nice bash -c id', 'starts a shell'],
    ['ls `id`', 'backticks'],
    ['FOO=1 ls', 'environment assignment'],
    ['ls\u202e -la', 'invisible'],
    ['ls & id', 'background'],
  ])('%j needs approval of the exact text (%s)', (text, reasonPart) => {
    const { plan, result } = verdict(text);
    expect(plan.shellRequired).toBe(true);
    expect(plan.shellReasons.join(' ')).toContain(reasonPart);
    expect(result.action).toBe('ask');
  });

  it.each([
    'sort --comp=sh notes.txt',
    'sort --compress-program=sh notes.txt',
    'sort --outp=x notes.txt',
    'sort -o x notes.txt',
    'sort -uox notes.txt',
    'uniq notes.txt out.txt',
    'uniq -c notes.txt AGENTS.md',
    'date --se=2020-01-01',
    'date -s 2020-01-01',
    'hostname --fi=notes.txt',
    'hostname evil',
    'file --compil --magic-f=notes.txt',
    'file -m notes.txt notes.txt',
    'find . -exec rm {} ;',
    'find . -delete',
    'find . -fprint x',
    'grep --inc=x y notes.txt',
    'tail -f notes.txt',
    'ls --hide-control-chars=x',
  ])('%j: an option the entry does not spell out in full asks', (text) => {
    expect(verdict(text).result.action).toBe('ask');
  });

  it.each(['cat /etc/passwd', 'cat ../outside.txt', 'cat link-out', 'ls /', 'grep x /etc/shadow', 'find / -name x', 'cat < ../outside.txt'])(
    '%j: a path outside the roots asks',
    (text) => {
      expect(verdict(text).result.action).toBe('ask');
    },
  );

  it('without the sandbox nothing runs unasked', () => {
    expect(verdict('ls', { sandboxed: false }).result).toMatchObject({ action: 'ask', reason: expect.stringContaining('unsandboxed') });
    expect(verdict('pwd', { sandboxed: false }).result.action).toBe('ask');
  });

  it('any env the call sets, or a network grant, takes the command off the safe list', () => {
    expect(verdict('ls', { env: { LD_PRELOAD: '/x.so' } }).result.action).toBe('ask');
    expect(verdict('ls', { env: { MY_FLAG: '1' } }).result.action).toBe('ask');
    expect(verdict('ls', { network: true }).result.action).toBe('ask');
  });

  it('output redirection is not read-only', () => {
    expect(verdict('echo hi > notes.txt').result.action).toBe('ask');
    expect(verdict('cat notes.txt 2>> log').result.action).toBe('ask');
  });

  it('a rule binds argv, redirections, env, workdir and network; * and ... are literals unless the rule says pattern', () => {
    const git = resolveExecutable('git', ws, process.env.PATH)!;
    const approvals = (rule: Record<string, unknown>): ExecApprovalsFile => ({
      ...defaults,
      agents: { main: { rules: [{ executable: git, args: ['status'], cwd: ws, ...rule }] } },
    });
    expect(verdict('git status', { approvals: approvals({}) }).result.action).toBe('run');
    expect(verdict('git status > out.txt', { approvals: approvals({}) }).result.action).toBe('ask');
    expect(verdict('git status', { approvals: approvals({}), env: { GIT_CONFIG_KEY_0: 'core.fsmonitor' } }).result.action).toBe('ask');
    expect(verdict('git status', { approvals: approvals({}), network: true }).result.action).toBe('ask');
    expect(verdict('git status', { approvals: approvals({ cwd: join(ws, 'src') }) }).result.action).toBe('ask');
    expect(verdict('git status --porcelain', { approvals: approvals({ args: ['status', '...'] }) }).result.action).toBe('ask');
    expect(verdict('git status --porcelain', { approvals: approvals({ args: ['status', '...'], pattern: true }) }).result.action).toBe('run');
    expect(verdict('git log', { approvals: approvals({ args: ['*'] }) }).result.action).toBe('ask');
  });

  it('the plan key changes with everything that changes what runs', () => {
    const keys = new Set([
      bound('git status').key,
      bound('git status > x').key,
      bound('git status', { A: '1' }).key,
      bound('git status', {}, true).key,
      bound('git  status').key,
    ]);
    expect(keys.size).toBe(4);
  });

  it('claw expands globs itself: sorted matches, dot files only when asked, ./ before a name starting with -, quoted * literal', () => {
    const dir = join(base, 'globs');
    mkdirSync(join(dir, 'src'), { recursive: true });
    for (const name of ['b.ts', 'a.ts', '.hidden.ts', '--checkpoint-action=exec=sh x.sh', 'src/c.ts', 'src/d.js']) writeFileSync(join(dir, name), '');
    expect(expandGlob('*.ts', dir)).toEqual(['a.ts', 'b.ts']);
    expect(expandGlob('.*.ts', dir)).toEqual(['.hidden.ts']);
    expect(expandGlob('src/*.[tj]s', dir)).toEqual(['src/c.ts', 'src/d.js']);
    expect(expandGlob('--*', dir)).toEqual(['./--checkpoint-action=exec=sh x.sh']);
    expect(expandGlob('*.none', dir)).toEqual(['*.none']);
    expect(expandGlob('\\*.ts', dir)).toEqual(['*.ts']);
    const { plan, expanded } = expandPlanGlobs(parseCommand(`tar cf x.tar * '*.ts'`), dir);
    expect(expanded).toBe(true);
    expect(plan.shellRequired).toBe(false);
    expect(plan.steps[0]!.pipeline[0]!.argv).toEqual(['tar', 'cf', 'x.tar', './--checkpoint-action=exec=sh x.sh', 'a.ts', 'b.ts', 'src', '*.ts']);
    expect(parseCommand('*.sh').shellRequired).toBe(true);
    expect(parseCommand('echo x > *.txt').shellRequired).toBe(true);
  });

  it('the plan is the argv that runs: quotes keep operators literal', () => {
    const plan = parseCommand(`echo 'a && b' "c|d" e\\;f`);
    expect(plan.shellRequired).toBe(false);
    expect(plan.steps[0]!.pipeline[0]!.argv).toEqual(['echo', 'a && b', 'c|d', 'e;f']);
  });

  it('security deny and ask off refuse; ask always asks even for safe commands', () => {
    expect(verdict('ls', { approvals: { ...defaults, security: 'deny' } }).result.action).toBe('deny');
    expect(verdict('rm x', { approvals: { ...defaults, ask: 'off' } }).result.action).toBe('deny');
    expect(verdict('ls', { approvals: { ...defaults, ask: 'always' } }).result.action).toBe('ask');
  });
});
