import { z } from 'zod';
import { lazySchema } from '../protocol/index.js';
import type { ToolDefinition } from '../tools/index.js';
import { defineTool, toolError, toolOk, toolParameters } from '../tools/index.js';
import type { CronJob } from '../protocol/index.js';
import { CRON_TOOL_SHAPE, cronToolArgs, normaliseCronArgs, type CronToolArgs } from './cron-tool-args.js';
import type { CronService } from './cron-service.js';
import type { HeartbeatRunner } from './heartbeat-runner.js';

export interface ScheduleToolDeps {
  cron: CronService;
  heartbeat: HeartbeatRunner;
  /** The agent a session belongs to (for `wake`). */
  agentOf(sessionKey: string): string;
}

function summary(job: CronJob): Record<string, unknown> {
  return {
    id: job.id,
    name: job.name,
    enabled: job.enabled,
    schedule: job.schedule,
    payload: job.payload.kind,
    nextRunAt: job.state.nextRunAt !== undefined ? new Date(job.state.nextRunAt).toISOString() : null,
    lastStatus: job.state.lastStatus ?? null,
    ...(job.state.blockedReason ? { blocked: job.state.blockedReason } : {}),
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message}`).join('; ');
}

/** The job a cron-started turn belongs to, when that job may not schedule. */
function schedulingRefused(deps: ScheduleToolDeps, sessionKey: string): string | undefined {
  const fromJob = sessionKey.startsWith('cron:') ? deps.cron.get(sessionKey.slice(5)) : undefined;
  const job = fromJob ?? deps.cron.activeJobFor(sessionKey);
  if (!job || job.allowScheduling) return undefined;
  return `This turn was started by cron job "${job.name}" (${job.id}), which may not create or change cron jobs. Set allowScheduling: true on that job if it really should.`;
}

async function runAction(args: CronToolArgs, deps: ScheduleToolDeps, sessionKey: string): Promise<unknown> {
  const { cron } = deps;
  const need = (): string => {
    if (!args.id) throw new Error(`"${args.action}" needs the job id: {"action":"${args.action}","id":"<id from list>"}`);
    return args.id;
  };
  switch (args.action) {
    case 'status':
      return { jobs: cron.list().length, next: cron.nextRuns(5), heartbeat: deps.heartbeat.status(), notices: cron.notices };
    case 'list':
      return { jobs: cron.list().map(summary) };
    case 'add': {
      if (!args.job) throw new Error(`"add" needs a job. ${CRON_TOOL_SHAPE}`);
      return { added: summary(await cron.add(args.job, sessionKey)) };
    }
    case 'update':
      return { updated: summary(await cron.update(need(), args.patch ?? {})) };
    case 'remove':
      return { removed: cron.remove(need()) };
    case 'run':
      return { run: cron.runNow(need()) };
    case 'runs':
      return { runs: cron.runs(need(), args.limit ?? 20) };
    case 'wake': {
      const agentId = deps.agentOf(sessionKey);
      deps.heartbeat.wake(agentId, 'cron');
      return { woke: agentId };
    }
  }
}

const MUTATING = new Set(['add', 'update', 'remove', 'run']);

/** `cron`: the agent manages its schedule. Flattened arguments are normalised first, then checked strictly. */
export function cronTool(deps: ScheduleToolDeps): ToolDefinition {
  const parameters = toolParameters(cronToolArgs);
  return {
    name: 'cron',
    group: 'automation',
    risk: 'medium',
    description: `Manage scheduled jobs: status, list, add, update, remove, run (now), runs (history), wake (the heartbeat). Example: ${CRON_TOOL_SHAPE}`,
    get parameters() {
      return parameters();
    },
    input: lazySchema(() => z.record(z.string(), z.unknown())),
    async execute(raw, context) {
      const parsed = cronToolArgs.safeParse(normaliseCronArgs(raw));
      if (!parsed.success) return toolError(`Invalid cron arguments: ${describeIssues(parsed.error)}. Use this shape: ${CRON_TOOL_SHAPE}`);
      if (MUTATING.has(parsed.data.action)) {
        const refused = schedulingRefused(deps, context.sessionKey);
        if (refused) return toolError(refused);
      }
      try {
        return toolOk(JSON.stringify(await runAction(parsed.data, deps, context.sessionKey), null, 2));
      } catch (error) {
        return toolError(`cron ${parsed.data.action} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

/** `heartbeat_respond`: how a heartbeat run says "nothing to report" (notify:false) or raises an alert. */
export function heartbeatRespondTool(heartbeat: HeartbeatRunner): ToolDefinition {
  return defineTool({
    name: 'heartbeat_respond',
    group: 'automation',
    risk: 'low',
    description: 'Only during a heartbeat: notify:false ends it silently (nothing reaches the user); notify:true with text sends that alert.',
    input: lazySchema(() => z.strictObject({ notify: z.boolean(), text: z.string().min(1).max(4000).optional() })),
    async execute(args, context) {
      if (args.notify && !args.text) return toolError('notify:true needs the alert text: {"notify":true,"text":"…"}.');
      if (!heartbeat.respond(context.sessionKey, args.notify, args.text))
        return toolError('No heartbeat is running in this session; answer the user normally.');
      return toolOk(
        args.notify
          ? 'The alert will be sent when this turn ends. End the turn now.'
          : 'Noted: nothing will be sent. End the turn now with a short HEARTBEAT_OK.',
      );
    },
  }) as unknown as ToolDefinition;
}
