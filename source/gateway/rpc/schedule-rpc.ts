import type { Core } from '../../core/index.js';
import { ClawError } from '../../protocol/index.js';
import { ScheduleError, ScheduleNotFound } from '../../schedule/index.js';
import type { HandlerTable } from '../module.js';

/** Schedule errors are the caller's to fix: refused input, or a job/agent that does not exist. */
function asClawError<T>(action: () => T): T {
  try {
    return action();
  } catch (error) {
    throw toClawError(error);
  }
}

/** The same for adding or changing a job, which may first load the cron-expression parser. */
async function asClawErrorAsync<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    throw toClawError(error);
  }
}

function toClawError(error: unknown): unknown {
  if (error instanceof ScheduleError) return new ClawError('bad_request', error.message);
  if (error instanceof ScheduleNotFound) return new ClawError('not_found', error.message);
  return error;
}

/** schedule.*, cron.* and heartbeat.*: thin adapters over the core's schedule service. */
export function scheduleRpc(core: Core): HandlerTable {
  const { schedule } = core;
  return {
    'schedule.list': () => schedule.overview(),
    'schedule.runs': (params) => asClawError(() => ({ runs: schedule.runs(params.id, params.limit) })),
    'cron.add': (params) => asClawErrorAsync(async () => ({ job: await schedule.add(params.job) })),
    'cron.update': (params) => asClawErrorAsync(async () => ({ job: await schedule.update(params.id, params.patch) })),
    'cron.remove': (params) => ({ removed: schedule.remove(params.id) }),
    'cron.run': (params) => asClawError(() => ({ run: schedule.run(params.id) })),
    'heartbeat.now': (params) =>
      asClawError(() => {
        schedule.heartbeatNow(params?.agentId);
        return {
          outcome: 'woken',
          reason: 'the heartbeat runs within 250 ms unless a free pre-check skips it; watch the heartbeat event or claw heartbeat status',
        };
      }),
    'heartbeat.pause': (params) => asClawError(() => schedule.pauseHeartbeat(params.agentId, params.paused)),
  };
}
