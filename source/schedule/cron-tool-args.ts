import { z } from 'zod';
import { cronJobInput, cronJobPatch, lazySchema } from '../protocol/index.js';
import { parseDuration } from './durations.js';

export const cronActions = ['status', 'list', 'add', 'update', 'remove', 'run', 'runs', 'wake'] as const;

/** The one shape the cron tool accepts after normalising. */
export const cronToolArgs = lazySchema(() =>
  z.strictObject({
    action: z.enum(cronActions),
    id: z.string().min(1).optional(),
    job: cronJobInput.optional(),
    patch: cronJobPatch.optional(),
    /** `wake`: a note for the heartbeat; `runs`: how many. */
    text: z.string().min(1).optional(),
    limit: z.number().int().min(1).max(200).optional(),
  }),
);
export type CronToolArgs = z.infer<typeof cronToolArgs>;

export const CRON_TOOL_SHAPE =
  '{"action":"add","job":{"name":"digest","schedule":{"kind":"cron","expr":"0 8 * * 1-5","tz":"Europe/Berlin"},"payload":{"kind":"agentTurn","message":"Summarise my inbox"},"delivery":{"mode":"announce","to":"main"}}} — schedule kinds: {"kind":"at","at":"20m"|ISO}, {"kind":"every","every":"2h"}, {"kind":"cron","expr","tz"}; payload kinds: {"kind":"systemEvent","text"} (main session) or {"kind":"agentTurn","message"} (own session); other actions: {"action":"list"}, {"action":"update","id","patch":{…}}, {"action":"remove"|"run"|"runs","id"}, {"action":"wake","text"}';

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null && !Array.isArray(value);
const JOB_KEYS = [
  'name',
  'agentId',
  'enabled',
  'schedule',
  'sessionTarget',
  'payload',
  'delivery',
  'deleteAfterRun',
  'catchUp',
  'retryInterrupted',
  'allowScheduling',
] as const;
const FLAT_KEYS = [
  'cron',
  'expr',
  'tz',
  'timezone',
  'every',
  'at',
  'exact',
  'message',
  'text',
  'model',
  'timeoutSeconds',
  'deliver',
  'announce',
  'kind',
] as const;

function scheduleOf(raw: Loose): unknown {
  const given = raw.schedule;
  const tz = raw.tz ?? raw.timezone;
  const exact = raw.exact;
  const extras = { ...(typeof tz === 'string' ? { tz } : {}), ...(typeof exact === 'boolean' ? { exact } : {}) };
  if (typeof given === 'string') {
    const text = given.trim();
    if (text.split(/\s+/).length >= 5) return { kind: 'cron', expr: text, ...extras };
    if (/^\d{4}-\d{2}-\d{2}T/.test(text)) return { kind: 'at', at: text };
    if (parseDuration(text) !== undefined) return { kind: 'every', every: text };
    return given;
  }
  if (isObject(given)) {
    if (typeof given.kind === 'string') return given.kind === 'cron' ? { ...extras, ...given } : given;
    const expr = given.expr ?? given.cron;
    if (typeof expr === 'string')
      return {
        kind: 'cron',
        expr,
        ...extras,
        ...(typeof (given.tz ?? given.timezone) === 'string' ? { tz: given.tz ?? given.timezone } : {}),
        ...(typeof given.exact === 'boolean' ? { exact: given.exact } : {}),
      };
    if (typeof given.every === 'string') return { kind: 'every', every: given.every };
    if (typeof given.at === 'string') return { kind: 'at', at: given.at };
    return given;
  }
  const expr = raw.cron ?? raw.expr;
  if (typeof expr === 'string') return { kind: 'cron', expr, ...extras };
  if (typeof raw.every === 'string' || typeof raw.every === 'number')
    return { kind: 'every', every: typeof raw.every === 'number' ? `${raw.every}s` : raw.every };
  if (typeof raw.at === 'string') return { kind: 'at', at: raw.at };
  return undefined;
}

function payloadOf(raw: Loose): unknown {
  const given = raw.payload;
  const turn = (message: unknown): Loose => ({
    kind: 'agentTurn',
    message,
    ...(typeof raw.model === 'string' ? { model: raw.model } : {}),
    ...(typeof raw.timeoutSeconds === 'number' ? { timeoutSeconds: raw.timeoutSeconds } : {}),
  });
  const wantsMain = raw.sessionTarget === 'main';
  if (typeof given === 'string') return wantsMain ? { kind: 'systemEvent', text: given } : turn(given);
  if (isObject(given)) {
    if (typeof given.kind === 'string') return given;
    if (typeof given.message === 'string') return { ...turn(given.message), ...given, kind: 'agentTurn' };
    if (typeof given.text === 'string') return wantsMain || raw.sessionTarget === undefined ? { kind: 'systemEvent', text: given.text } : turn(given.text);
    return given;
  }
  if (typeof raw.message === 'string') return wantsMain ? { kind: 'systemEvent', text: raw.message } : turn(raw.message);
  if (typeof raw.text === 'string') return raw.sessionTarget === 'isolated' ? turn(raw.text) : { kind: 'systemEvent', text: raw.text };
  return undefined;
}

function deliveryOf(raw: Loose): unknown {
  const given = raw.delivery ?? raw.deliver ?? raw.announce;
  if (given === undefined || given === false) return undefined;
  if (given === 'none') return { mode: 'none' };
  if (given === true || given === 'main') return { mode: 'announce', to: 'main' };
  if (isObject(given) && given.mode === undefined) {
    if (typeof given.channel === 'string') return { mode: 'announce', to: given };
    if (given.to !== undefined) return { mode: 'announce', to: given.to };
  }
  return given;
}

/** A job (or patch) as models write it: nested, flattened, or mixed. */
function jobOf(raw: Loose): Loose {
  const source: Loose = { ...raw, ...(isObject(raw.job) ? raw.job : {}), ...(isObject(raw.patch) ? raw.patch : {}) };
  const job: Loose = {};
  for (const key of JOB_KEYS) if (source[key] !== undefined) job[key] = source[key];
  const schedule = scheduleOf(source);
  const payload = payloadOf(source);
  const delivery = deliveryOf(source);
  if (schedule !== undefined) job.schedule = schedule;
  if (payload !== undefined) job.payload = payload;
  if (delivery !== undefined) job.delivery = delivery;
  else delete job.delivery;
  return job;
}

/**
 * Brings what a model sent into `cronToolArgs`: ids under `jobId`/`job_id`,
 * jobs flattened into the top level, schedules as bare strings, payloads
 * without a kind. Unknown keys stay, so the strict check still names them.
 */
export function normaliseCronArgs(input: unknown): unknown {
  if (!isObject(input)) return input;
  const raw: Loose = { ...input };
  const action = typeof raw.action === 'string' ? raw.action.toLowerCase() : raw.action;
  const id = raw.id ?? raw.jobId ?? raw.job_id ?? (isObject(raw.job) ? raw.job.id : undefined);
  const out: Loose = { action };
  if (id !== undefined) out.id = id;
  if (raw.limit !== undefined) out.limit = raw.limit;
  if (action === 'add') out.job = jobOf(raw);
  else if (action === 'update') out.patch = jobOf(raw);
  else if (action === 'wake' && typeof raw.text === 'string') out.text = raw.text;
  const known = new Set<string>(['action', 'id', 'jobId', 'job_id', 'job', 'patch', 'limit', 'text', ...JOB_KEYS, ...FLAT_KEYS]);
  for (const [key, value] of Object.entries(raw)) if (!known.has(key)) out[key] = value;
  return out;
}
