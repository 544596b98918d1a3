import { withinActiveHours } from './active-hours.js';
import { parseDuration } from './durations.js';
import { rollDay, type AgentState, type HeartbeatAgent } from './heartbeat-state.js';

/**
 * The free pre-checks before a heartbeat makes any model call: why this wake
 * does not run (off, paused, budget spent, outside active hours, already
 * running, an unusable model), or undefined when it should.
 */
export function skipReason(agent: HeartbeatAgent, state: AgentState, now: number, modelProblem: (ref: string) => string | undefined): string | undefined {
  const { config } = agent;
  if (!parseDuration(config.every)) return 'the heartbeat is off (every: 0)';
  if (state.paused) return 'paused (claw heartbeat resume)';
  rollDay(agent, state, now);
  if (config.dailyTokenBudget !== undefined && state.tokensToday >= config.dailyTokenBudget)
    return `the daily token budget is spent (${state.tokensToday} of ${config.dailyTokenBudget})`;
  if (config.activeHours && !withinActiveHours(now, config.activeHours)) {
    return `outside active hours ${config.activeHours.start}–${config.activeHours.end} ${config.activeHours.timezone ?? 'UTC'}`;
  }
  if (state.active) return 'a heartbeat is already running';
  const problem = config.model === undefined ? undefined : modelProblem(config.model);
  if (problem) return `heartbeat.model "${config.model}" cannot be used: ${problem}`;
  return undefined;
}
