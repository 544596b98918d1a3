import { statePaths } from '../../config/index.js';
import { connectLocal } from '../../client/index.js';
import type { CronJob, CronJobPatch, CronRun } from '../../protocol/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';

const usage = `Usage:
  claw cron list [--json]
  claw cron add --name NAME (--cron "EXPR" [--tz ZONE] [--exact] | --every 2h | --at 20m|ISO)
                (--message "…" [--model REF] [--timeout SECONDS] | --system "…")
                [--announce main|CHANNEL:PEER] [--agent ID] [--catch-up skip|once]
                [--retry-interrupted] [--allow-scheduling] [--keep] [--disabled]
  claw cron edit JOB [any add option]      (JOB: its ID, its name when unique, or an ID prefix)
  claw cron rm JOB
  claw cron run JOB
  claw cron runs JOB [--limit N] [--json]
  claw cron enable JOB | claw cron disable JOB`;

const VALUE_OPTIONS = new Set([
  '--name',
  '--cron',
  '--tz',
  '--every',
  '--at',
  '--message',
  '--system',
  '--model',
  '--timeout',
  '--announce',
  '--agent',
  '--catch-up',
  '--limit',
]);
const SWITCHES = new Set(['--exact', '--retry-interrupted', '--allow-scheduling', '--keep', '--disabled', '--json']);

class UsageError extends Error {}

function parseOptions(words: string[]): { positional: string[]; options: Map<string, string | true> } {
  const positional: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    if (VALUE_OPTIONS.has(word)) {
      const value = words[i + 1];
      if (value === undefined) throw new UsageError(`${word} needs a value.`);
      options.set(word, value);
      i += 1;
    } else if (SWITCHES.has(word)) {
      options.set(word, true);
    } else if (word.startsWith('--')) {
      throw new UsageError(`unknown option ${word}.`);
    } else {
      positional.push(word);
    }
  }
  return { positional, options };
}

function routeOf(text: string): CronJobPatch['delivery'] {
  if (text === 'none') return { mode: 'none' };
  if (text === 'main') return { mode: 'announce', to: 'main' };
  const [channel, ...rest] = text.split(':');
  const peer = rest.join(':');
  if (!channel || !peer) throw new UsageError(`--announce expects main or CHANNEL:PEER (e.g. telegram:12345), got "${text}".`);
  return { mode: 'announce', to: { channel, peer: { kind: 'direct', id: peer } } };
}

/** The job fields the options name; `add` needs schedule and payload, `edit` takes any subset. */
function jobFields(options: Map<string, string | true>): CronJobPatch {
  const text = (key: string): string | undefined => {
    const value = options.get(key);
    return typeof value === 'string' ? value : undefined;
  };
  const patch: CronJobPatch = {};
  const schedules = ['--cron', '--every', '--at'].filter((key) => options.has(key));
  if (schedules.length > 1) throw new UsageError(`give one schedule, not ${schedules.join(' and ')}.`);
  if (text('--cron'))
    patch.schedule = {
      kind: 'cron',
      expr: text('--cron')!,
      ...(text('--tz') ? { tz: text('--tz')! } : {}),
      ...(options.has('--exact') ? { exact: true } : {}),
    };
  else if (text('--every')) patch.schedule = { kind: 'every', every: text('--every')! };
  else if (text('--at')) patch.schedule = { kind: 'at', at: text('--at')! };
  else if (options.has('--tz')) throw new UsageError('--tz goes with --cron.');
  if (text('--message') && text('--system')) throw new UsageError('give --message (own session) or --system (main session), not both.');
  if (text('--message')) {
    const timeout = text('--timeout');
    if (timeout !== undefined && !/^\d+$/.test(timeout)) throw new UsageError(`--timeout is whole seconds, got "${timeout}".`);
    patch.payload = {
      kind: 'agentTurn',
      message: text('--message')!,
      ...(text('--model') ? { model: text('--model')! } : {}),
      ...(timeout ? { timeoutSeconds: Number(timeout) } : {}),
    };
  } else if (text('--system')) {
    patch.payload = { kind: 'systemEvent', text: text('--system')! };
  }
  if (text('--name')) patch.name = text('--name')!;
  if (text('--agent')) patch.agentId = text('--agent')!;
  if (text('--announce')) patch.delivery = routeOf(text('--announce')!);
  const catchUp = text('--catch-up');
  if (catchUp !== undefined) {
    if (catchUp !== 'skip' && catchUp !== 'once') throw new UsageError(`--catch-up is skip or once, got "${catchUp}".`);
    patch.catchUp = catchUp;
  }
  if (options.has('--retry-interrupted')) patch.retryInterrupted = true;
  if (options.has('--allow-scheduling')) patch.allowScheduling = true;
  if (options.has('--keep')) patch.deleteAfterRun = false;
  if (options.has('--disabled')) patch.enabled = false;
  return patch;
}

const when = (at: number | undefined): string => (at === undefined ? '-' : new Date(at).toISOString().replace('.000Z', 'Z'));

function describeSchedule(job: CronJob): string {
  const s = job.schedule;
  if (s.kind === 'cron') return `cron ${s.expr}${s.tz ? ` ${s.tz}` : ''}${s.exact ? ' exact' : ''}`;
  return s.kind === 'every' ? `every ${s.every}` : `at ${when(job.anchorAt)}`;
}

function printJobs(jobs: CronJob[]): void {
  if (jobs.length === 0) {
    process.stdout.write('No cron jobs. Add one with `claw cron add --name NAME --cron "0 8 * * *" --message "…"`.\n');
    return;
  }
  const rows = jobs.map((job) => [
    job.id,
    job.name,
    job.enabled ? 'on' : 'off',
    describeSchedule(job),
    when(job.state.nextRunAt),
    job.state.lastStatus ?? '-',
    job.state.blockedReason ?? job.state.lastError ?? '',
  ]);
  printRows(['ID', 'NAME', 'ON', 'SCHEDULE', 'NEXT RUN', 'LAST', 'NOTE'], rows);
}

/**
 * The job a reference names: its id, its name (exact, then any case) when
 * only one job has it, or the start of one id. Ambiguous or unknown
 * references say which jobs they could mean.
 */
export function resolveJob(jobs: ReadonlyArray<{ id: string; name: string }>, ref: string): { id: string } | { error: string } {
  const byId = jobs.find((job) => job.id === ref);
  if (byId) return { id: byId.id };
  const list = (found: ReadonlyArray<{ id: string; name: string }>) => found.map((job) => `${job.id} "${job.name}"`).join(', ');
  for (const match of [(job: { name: string }) => job.name === ref, (job: { name: string }) => job.name.toLowerCase() === ref.toLowerCase()]) {
    const named = jobs.filter(match);
    if (named.length === 1) return { id: named[0]!.id };
    if (named.length > 1) return { error: `${named.length} jobs are named "${ref}" (${list(named)}): give the ID.` };
  }
  const prefixed = jobs.filter((job) => job.id.startsWith(ref));
  if (prefixed.length === 1) return { id: prefixed[0]!.id };
  if (prefixed.length > 1) return { error: `"${ref}" starts ${prefixed.length} job IDs (${list(prefixed)}): give more of it.` };
  return { error: `no job "${ref}" (by ID, name or ID prefix; see \`claw cron list\`).` };
}

function printRuns(runs: CronRun[]): void {
  if (runs.length === 0) {
    process.stdout.write('No runs yet.\n');
    return;
  }
  const rows = runs.map((run) => [
    when(run.scheduledAt),
    run.status,
    run.startedAt ? when(run.startedAt) : '-',
    run.finishedAt ? when(run.finishedAt) : '-',
    String(run.tokens ?? '-'),
    run.deliveredMessageId ?? '',
    run.error ?? run.reason ?? '',
  ]);
  printRows(['SLOT', 'STATUS', 'STARTED', 'FINISHED', 'TOKENS', 'DELIVERED', 'NOTE'], rows);
}

function printRows(header: string[], rows: string[][]): void {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  for (const row of [header, ...rows])
    process.stdout.write(
      `${row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd()}\n`,
    );
}

export const run: CommandRun = async (input) => {
  const index = input.argv.indexOf('cron');
  const [sub, ...rest] = index === -1 ? [] : input.argv.slice(index + 1);
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(rest);
  } catch (error) {
    process.stderr.write(`claw cron: ${(error as Error).message}\n${usage}\n`);
    return 2;
  }
  const { positional, options } = parsed;
  const json = options.has('--json') || input.flags.json;
  const ref = positional[0];
  const needsId = ['edit', 'rm', 'run', 'runs', 'enable', 'disable'];
  if (!sub || !['list', 'add', ...needsId].includes(sub)) {
    process.stderr.write(`${sub ? `claw cron: unknown subcommand "${sub}".\n` : ''}${usage}\n`);
    return 2;
  }
  if (needsId.includes(sub) && !ref) {
    process.stderr.write(`claw cron ${sub}: give the job's ID or name (see \`claw cron list\`).\n`);
    return 2;
  }
  let fields: CronJobPatch = {};
  try {
    if (sub === 'add' || sub === 'edit') fields = jobFields(options);
  } catch (error) {
    process.stderr.write(`claw cron ${sub}: ${(error as Error).message}\n${usage}\n`);
    return 2;
  }
  if (sub === 'add' && (!fields.name || !fields.schedule || !fields.payload)) {
    process.stderr.write(`claw cron add: needs --name, a schedule (--cron, --every or --at) and a payload (--message or --system).\n${usage}\n`);
    return 2;
  }
  const client = await connectLocal(statePaths());
  try {
    let id = ref;
    if (ref && needsId.includes(sub)) {
      const resolved = resolveJob((await client.request('schedule.list', {})).jobs, ref);
      if ('error' in resolved) {
        process.stderr.write(`claw cron ${sub}: ${resolved.error}\n`);
        return 1;
      }
      id = resolved.id;
    }
    if (sub === 'list') {
      const { jobs, notices } = await client.request('schedule.list', {});
      if (json) printJson({ jobs, notices });
      else {
        printJobs(jobs);
        for (const notice of notices) process.stdout.write(`! ${notice}\n`);
      }
    } else if (sub === 'runs') {
      const limit = options.get('--limit');
      const { runs } = await client.request('schedule.runs', { id: id!, ...(typeof limit === 'string' ? { limit: Number(limit) } : {}) });
      if (json) printJson(runs);
      else printRuns(runs);
    } else if (sub === 'rm') {
      const { removed } = await client.request('cron.remove', { id: id! });
      if (!removed) {
        process.stderr.write(`claw cron rm: no job "${id}" (see \`claw cron list\`).\n`);
        return 1;
      }
      process.stdout.write(`removed ${id} (its run log stays in cron/runs/${id}.jsonl)\n`);
    } else if (sub === 'run') {
      const { run: started } = await client.request('cron.run', { id: id! });
      process.stdout.write(`${id}: slot ${when(started.scheduledAt)} ${started.status}; follow it with \`claw cron runs ${id}\`\n`);
    } else {
      const patch: CronJobPatch = sub === 'enable' ? { enabled: true } : sub === 'disable' ? { enabled: false } : fields;
      const { job } =
        sub === 'add'
          ? await client.request('cron.add', { job: fields as Required<Pick<CronJobPatch, 'name' | 'schedule' | 'payload'>> })
          : await client.request('cron.update', { id: id!, patch });
      if (json) printJson(job);
      else
        process.stdout.write(
          `${sub === 'add' ? 'added' : 'updated'} ${job.id} "${job.name}": ${describeSchedule(job)}, ${job.enabled ? `next run ${when(job.state.nextRunAt)}` : 'disabled'}\n`,
        );
    }
    return 0;
  } finally {
    client.close();
  }
};
