import type { PermissionOption, RequestPermissionRequest, ToolCallContent } from '@agentclientprotocol/sdk';
import { changeDiff } from '../../tools/index.js';

export interface PermissionView {
  /** What the operator reads: the agent's title, then the command and folder, the paths, and each edit as a diff. */
  command: string;
  cwd: string;
  /** What an "allow for this session" remembers: the same kind of call with the same input. */
  binding: string;
}

function field(input: unknown, ...names: string[]): unknown {
  if (!input || typeof input !== 'object') return undefined;
  for (const name of names) {
    const value = (input as Record<string, unknown>)[name];
    if (value !== undefined) return value;
  }
  return undefined;
}

/** `command` as agents send it: a string, or an argv array (`["bash", "-lc", "…"]`, which is shown as its script). */
function commandText(input: unknown): string | undefined {
  const command = field(input, 'command', 'cmd');
  if (typeof command === 'string') return command;
  if (Array.isArray(command) && command.every((part) => typeof part === 'string')) {
    const argv = command as string[];
    const shell = argv.length === 3 && /(^|\/)(ba|z|da)?sh$/.test(argv[0]!) && /^-l?c$/.test(argv[1]!);
    return shell ? argv[2] : argv.map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part))).join(' ');
  }
  return undefined;
}

function contentLines(content: readonly ToolCallContent[] | null | undefined): string[] {
  const lines: string[] = [];
  for (const item of content ?? []) {
    if (item.type === 'diff') lines.push(`--- ${item.path}`, changeDiff(item.oldText ?? undefined, item.newText));
    else if (item.type === 'content' && item.content.type === 'text') lines.push(item.content.text);
  }
  return lines;
}

/**
 * What an agent's `session/request_permission` asks, shown whole: its title,
 * the command and working folder from its raw input, the paths it touches
 * and the diff of an edit. The agent's title alone ("Read file") says
 * nothing of what will run.
 */
export function describePermission(name: string, params: RequestPermissionRequest, defaultCwd: string): PermissionView {
  const call = params.toolCall;
  const title = call.title ?? call.toolCallId;
  const input = call.rawInput;
  const command = commandText(input);
  const cwd = field(input, 'cwd', 'workdir');
  const paths = [
    ...new Set([
      ...(call.locations ?? []).map((location) => location.path),
      ...[field(input, 'path', 'file_path', 'filePath')].filter((p): p is string => typeof p === 'string'),
    ]),
  ];
  const lines = [`${name}: ${title}`];
  if (command) lines.push(`$ ${command}`);
  if (paths.length > 0) lines.push(`paths: ${paths.join(', ')}`);
  lines.push(...contentLines(call.content));
  const binding = JSON.stringify({ agent: name, kind: call.kind ?? null, title, command: command ?? null, paths, input: input ?? null });
  return { command: lines.join('\n'), cwd: typeof cwd === 'string' ? cwd : defaultCwd, binding };
}

/** The agent's option for the operator's answer: once or always when approved, a reject otherwise. */
export function pickOption(options: readonly PermissionOption[], approved: boolean, remember: boolean): string | undefined {
  const order = approved ? (remember ? ['allow_always', 'allow_once'] : ['allow_once', 'allow_always']) : ['reject_once', 'reject_always'];
  for (const kind of order) {
    const found = options.find((o) => o.kind === kind);
    if (found) return found.optionId;
  }
  return undefined;
}

/** How an approval that was not given ended, in words for the agent's result. */
export function answerWord(outcome: { status: string; resolvedBy?: string }): string {
  if (outcome.status === 'expired') return `was not answered in time${outcome.resolvedBy === 'cancelled' ? ' (the turn was stopped)' : ''}`;
  return `was denied by ${outcome.resolvedBy ?? 'the operator'}`;
}
