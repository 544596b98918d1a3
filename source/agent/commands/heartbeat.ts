import { ClawError, heartbeatStateWord, type CommandData } from '../../protocol/index.js';
import { parseSessionKey } from '../../routing/index.js';
import type { SlashCommand } from './types.js';

export const heartbeatCommand: SlashCommand = {
  name: 'heartbeat',
  ownerOnly: true,
  aliases: [],
  args: '[now|pause|resume]',
  description: "This agent's heartbeat: its state, or wake it now, pause or resume it.",
  async run({ sessionKey, args, host }) {
    const schedule = host.schedule;
    if (!schedule) throw new ClawError('unavailable', 'This gateway runs no schedule service; the heartbeat is not available here.');
    const agentId = parseSessionKey(sessionKey)?.agentId;
    const sub = args.trim();
    if (sub === 'now') {
      schedule.heartbeatNow(agentId);
      return { reply: 'heartbeat woken: it runs unless a free pre-check skips it (see /heartbeat)' };
    }
    if (sub === 'pause' || sub === 'resume') {
      const status = schedule.pauseHeartbeat(agentId, sub === 'pause');
      return { reply: `heartbeat of ${status.agentId} ${status.paused ? 'paused' : 'resumed'}`, data: status satisfies CommandData<'heartbeat'> };
    }
    if (sub) throw new ClawError('bad_request', `Unknown /heartbeat argument "${sub}". Use /heartbeat, /heartbeat now, /heartbeat pause or /heartbeat resume.`);
    const status = schedule.overview().heartbeats.find((h) => h.agentId === (agentId ?? h.agentId));
    if (!status) throw new ClawError('not_found', `No heartbeat for agent ${agentId}.`);
    const state = heartbeatStateWord(status);
    const next = status.nextRunAt !== undefined ? new Date(status.nextRunAt).toISOString() : '—';
    const last = status.lastOutcome ? `${status.lastOutcome}${status.lastReason ? ` (${status.lastReason})` : ''}` : '—';
    const budget = status.dailyTokenBudget !== undefined ? ` of ${status.dailyTokenBudget}` : '';
    return {
      reply: `heartbeat ${status.agentId}: ${state} · next ${next} · last ${last} · ${status.tokensToday}${budget} tokens today`,
      data: status satisfies CommandData<'heartbeat'>,
    };
  },
};
