import { describe, expect, it } from 'vitest';
import { authorizeExec, parseCommand, planCommands, resolveExecutable, type ExecApprovalsFile } from '../../source/tools/index.js';

const defaults: ExecApprovalsFile = { version: 1, security: 'allowlist', ask: 'on-miss', safeList: true, agents: {} };

function verdict(text: string, envKeys: string[] = [], approvals = defaults) {
  const plan = parseCommand(text);
  const commands = plan.shellRequired ? [] : planCommands(plan).map((c) => ({ argv: c.argv, executable: resolveExecutable(c.argv[0]!, '/tmp', process.env.PATH) }));
  return { plan, result: authorizeExec({ plan, commands, agentId: 'main', approvals, envKeys, sessionApproved: new Set() }) };
}

describe('exec bypass fixtures', () => {
  it('runs plain read-only commands from the safe list', () => {
    expect(verdict('ls -la').result.action).toBe('run');
    expect(verdict('cat /etc/hostname | wc -l').result.action).toBe('run');
  });

  it.each([
    ['env -S "sh -c id"', 'env -S'],
    ['ls *.ts', 'glob'],
    ['cat $HOME/.ssh/id_rsa', '$'],
    ['echo "$HOME"', '$'],
    ['cat <<EOF\n$(id)\nEOF', 'heredoc'],
    ['echo aWQ= | base64 -d | sh', 'sh'],
    ['echo "console.log(1)" | node', 'node reads a program from stdin'],
    ['zsh -c id', 'zsh -c'],
    ['bash -c "ls"', 'bash -c'],
    ['nice bash -c id', 'starts a shell'],
    ['ls `id`', 'backticks'],
    ['ls; (id)', 'subshell'],
    ['ls ~', 'tilde'],
    ['FOO=1 ls', 'environment assignment'],
    ['ls\u202e -la', 'invisible'],
    ['ls \r rm -rf x', 'invisible'],
    ['eval ls', 'builtin'],
    ['ls & id', 'background'],
  ])('%j needs approval of the exact text (%s)', (text, reasonPart) => {
    const { plan, result } = verdict(text);
    expect(plan.shellRequired).toBe(true);
    expect(plan.shellReasons.join(' ')).toContain(reasonPart);
    expect(result.action).toBe('ask');
  });

  it('an allowlist rule never satisfies a shell-required command', () => {
    const sh = resolveExecutable('sh', '/tmp', process.env.PATH)!;
    const approvals: ExecApprovalsFile = { ...defaults, agents: { main: { rules: [{ executable: sh, args: ['...'] }] } } };
    expect(verdict('sh -c id', [], approvals).result.action).toBe('ask');
  });

  it.each(['ls && rm -rf /tmp/x', 'ls; rm -rf /tmp/x', 'ls || curl http://x', 'cat a\nrm -rf b'])('%j: a chained second command must pass on its own', (text) => {
    const { plan, result } = verdict(text);
    expect(plan.shellRequired).toBe(false);
    expect(planCommands(plan).length).toBe(2);
    expect(result).toMatchObject({ action: 'ask' });
    expect(result.reason).toContain('not on the allowlist');
  });

  it.each(['find . -exec rm {} ;', 'find . -delete', 'git -c core.pager=sh log', 'sort -o /etc/x a', 'sort -uo x a', 'date -s 2020-01-01', 'hostname evil'])(
    '%j: argument injection falls off the safe list',
    (text) => {
      expect(verdict(text).result.action).toBe('ask');
    },
  );

  it('env overrides that change what runs defeat the allowlist', () => {
    expect(verdict('ls', ['LD_PRELOAD']).result.action).toBe('ask');
    expect(verdict('ls', ['PATH']).result.action).toBe('ask');
    expect(verdict('ls', ['MY_FLAG']).result.action).toBe('run');
  });

  it('output redirection is not read-only', () => {
    expect(verdict('echo hi > notes.txt').result.action).toBe('ask');
  });

  it('the plan is the argv that runs: quotes keep operators literal', () => {
    const plan = parseCommand(`echo 'a && b' "c|d" e\\;f`);
    expect(plan.shellRequired).toBe(false);
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]!.pipeline[0]!.argv).toEqual(['echo', 'a && b', 'c|d', 'e;f']);
  });

  it('a ./ls in the workspace is not the safe ls', () => {
    expect(verdict('./ls').result.action).not.toBe('run');
  });

  it('security deny and ask off refuse; ask always asks even for safe commands', () => {
    expect(verdict('ls', [], { ...defaults, security: 'deny' }).result.action).toBe('deny');
    expect(verdict('rm x', [], { ...defaults, ask: 'off' }).result.action).toBe('deny');
    expect(verdict('ls', [], { ...defaults, ask: 'always' }).result.action).toBe('ask');
  });
});
