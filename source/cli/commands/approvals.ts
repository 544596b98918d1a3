import { clientName } from '../client-name.js';
import { parseArgs } from 'node:util';
import { statePaths } from '../../config/index.js';
import { ClawError, type ApprovalRecord } from '../../protocol/index.js';
import type { GatewayClient } from '../../client/index.js';
import type { CommandRun } from '../command.js';
import { formatDuration, printJson } from '../format.js';
import { revealText, revealWarning } from '../../protocol/index.js';

const usage = `Usage:
  claw approvals [list] [--all] [--json]
  claw approvals approve ID [--session | --always] [--json]
  claw approvals deny ID [--json]
ID may be a unique prefix of the id shown by \`claw approvals list\`.`;

function fail(text: string, code = 2): number {
  process.stderr.write(`claw approvals: ${text}\n`);
  return code;
}

/** The command as the operator must read it: hidden characters escaped, newlines indented under the first line. */
function visibleCommand(command: string, indent: string): { text: string; warning: string | undefined } {
  const revealed = revealText(command);
  return { text: revealed.text.split('\n').join(`\n${indent}`), warning: revealWarning(revealed.escaped) };
}

function describeStatus(record: ApprovalRecord, now: number): string {
  if (record.status === 'pending')
    return `pending, asked ${formatDuration(Math.max(0, now - record.createdAt))} ago, expires in ${formatDuration(Math.max(0, record.expiresAt - now))}`;
  const when = record.resolvedAt === undefined ? '' : ` ${formatDuration(Math.max(0, now - record.resolvedAt))} ago`;
  if (record.status === 'expired')
    return record.resolvedBy === 'cancelled' ? `cancelled by the tool call that asked${when}` : `expired unanswered${when} (denied)`;
  return `${record.status}${record.decision && record.decision !== 'deny' ? ` (${record.decision})` : ''} by ${record.resolvedBy ?? 'unknown'}${when}`;
}

function printRecord(record: ApprovalRecord, now: number): void {
  const command = visibleCommand(record.command, ' '.repeat(11));
  const rows: [string, string][] = [
    ['id', record.id],
    ['status', describeStatus(record, now)],
    ['agent', record.agentId],
    ['session', record.sessionKey],
    ['cwd', revealText(record.cwd).text],
    ...(record.envKeys.length ? [['env', record.envKeys.join(' ')] as [string, string]] : []),
    ['reason', revealText(record.reason).text],
    ['command', command.text],
    ...(command.warning ? [['warning', command.warning] as [string, string]] : []),
  ];
  for (const [label, value] of rows) process.stdout.write(`  ${label.padEnd(9)}${value}\n`);
}

async function list(client: GatewayClient, all: boolean, json: boolean): Promise<number> {
  const { approvals } = await client.request('approvals.list', { status: all ? 'all' : 'pending' });
  if (json) {
    printJson({ approvals });
    return 0;
  }
  if (approvals.length === 0) {
    process.stdout.write(all ? 'No approval requests yet.\n' : 'No pending approvals.\n');
    return 0;
  }
  const pending = approvals.filter((a) => a.status === 'pending').length;
  process.stdout.write(`${pending} pending approval${pending === 1 ? '' : 's'}${all ? `, ${approvals.length - pending} decided` : ''}:\n`);
  const now = Date.now();
  for (const record of approvals) {
    process.stdout.write('\n');
    printRecord(record, now);
  }
  if (pending > 0) process.stdout.write('\nAnswer with `claw approvals approve ID [--session|--always]` or `claw approvals deny ID`.\n');
  return 0;
}

/** The record an ID (or unique id prefix) names, pending ones first. */
async function findRecord(client: GatewayClient, id: string): Promise<ApprovalRecord> {
  const { approvals } = await client.request('approvals.list', { status: 'all' });
  const exact = approvals.find((a) => a.id === id);
  if (exact) return exact;
  const matches = approvals.filter((a) => a.id.startsWith(id));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1)
    throw new ClawError('bad_request', `"${id}" matches ${matches.length} approvals (${matches.map((a) => a.id).join(', ')}); give more of the id.`);
  throw new ClawError('not_found', `No approval request "${id}". Run \`claw approvals list\` to see pending requests.`);
}

async function answer(client: GatewayClient, id: string, decision: 'once' | 'session' | 'always' | 'deny', json: boolean): Promise<number> {
  const record = await findRecord(client, id);
  if (record.status !== 'pending') {
    process.stderr.write(`claw approvals: approval ${record.id} was already decided: ${describeStatus(record, Date.now())}. The first answer wins.\n`);
    return 1;
  }
  let result;
  try {
    result = await client.request('approvals.resolve', { id: record.id, decision });
  } catch (error) {
    // Someone else answered between our look-up and our answer.
    if (!(error instanceof ClawError) || error.code !== 'conflict') throw error;
    const latest = await findRecord(client, record.id);
    process.stderr.write(`claw approvals: approval ${record.id} was already decided: ${describeStatus(latest, Date.now())}. The first answer wins.\n`);
    return 1;
  }
  if (json) {
    printJson(result);
    return 0;
  }
  const command = visibleCommand(result.approval.command, '  ').text;
  if (decision === 'deny') {
    process.stdout.write(`Denied ${record.id}:\n  ${command}\n`);
    return 0;
  }
  const scope = decision === 'once' ? 'this one time' : decision === 'session' ? `for the rest of session ${record.sessionKey}` : 'always';
  process.stdout.write(`Approved ${record.id} ${scope}:\n  ${command}\n`);
  if (decision === 'always') {
    if (result.rule === undefined) {
      process.stdout.write(`No allowlist rule was written for this ${record.kind} request; only this request was approved.\n`);
    } else {
      process.stdout.write(`Rule written for agent ${record.agentId}: ${revealText(result.rule).text}\n`);
      const matched = result.wouldMatch ?? [];
      process.stdout.write(
        matched.length === 0
          ? 'It would not have matched any recent command.\n'
          : `It would have matched ${matched.length} recent command${matched.length === 1 ? '' : 's'}:\n`,
      );
      for (const text of matched) process.stdout.write(`  ${visibleCommand(text, '  ').text}\n`);
    }
  }
  return 0;
}

/** Lists and answers exec/MCP approval requests of the running local gateway. */
export const run: CommandRun = async ({ argv }) => {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv.slice(argv.indexOf('approvals') + 1),
      allowPositionals: true,
      options: {
        json: { type: 'boolean', default: false },
        all: { type: 'boolean', default: false },
        session: { type: 'boolean', default: false },
        always: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${usage}`);
  }
  const { values, positionals } = parsed;
  const [action = 'list', id, ...extra] = positionals;
  if (extra.length > 0) return fail(`unexpected "${extra.join(' ')}".\n${usage}`);
  if (values.session && values.always) return fail('use either --session or --always, not both.');
  if ((values.session || values.always) && action !== 'approve')
    return fail(`--${values.session ? 'session' : 'always'} only applies to \`approve\`.\n${usage}`);
  if (action === 'list' && id !== undefined) return fail(`list takes no ID.\n${usage}`);
  if ((action === 'approve' || action === 'deny') && !id) return fail(`${action} needs an approval ID (see \`claw approvals list\`).\n${usage}`);
  if (action !== 'list' && action !== 'approve' && action !== 'deny') return fail(`unknown action "${action}".\n${usage}`);
  if (values.all && action !== 'list') return fail(`--all only applies to \`list\`.\n${usage}`);

  const { connectLocal } = await import('../../client/index.js');
  const client = await connectLocal(statePaths(), { clientName: clientName('claw approvals') });
  try {
    if (action === 'list') return await list(client, values.all ?? false, values.json ?? false);
    const decision = action === 'deny' ? 'deny' : values.always ? 'always' : values.session ? 'session' : 'once';
    return await answer(client, id!, decision, values.json ?? false);
  } finally {
    client.close();
  }
};
