/**
 * Heartbeat and cron: the assistant's own schedule. `ScheduleService` is the
 * daemon service (listed in core); the rest is exported for the RPC adapter,
 * the CLI's formatting and tests.
 */
export { ScheduleService, ScheduleNotFound } from './schedule-service.js';
export { ScheduleError, loadCron, nextSlotAfter, slotsBetween, staggerOffset, isTopOfHour, STAGGER_WINDOW_MS } from './schedule-math.js';
export { CronService, type CronDeps, type TurnStatus } from './cron-service.js';
export { HeartbeatRunner, COALESCE_MS, type HeartbeatDeps, type HeartbeatAgent, type HeartbeatTrigger } from './heartbeat-runner.js';
export { JobStore } from './job-store.js';
export { RunLog } from './run-log.js';
export { isQuietReply, HEARTBEAT_OK } from './quiet-reply.js';
export { readHeartbeatFile } from './heartbeat-file.js';
export { parseDuration, formatDuration } from './durations.js';
export { normaliseCronArgs, cronToolArgs, CRON_TOOL_SHAPE } from './cron-tool-args.js';
export { ERROR_BACKOFF_MS } from './cron-policy.js';
