import type { SlashCommand } from '../agent/index.js';
import { ConfigError, setBudget } from '../config/index.js';
import { ClawError } from '../protocol/index.js';
import { dailySpend, formatAmount, sparkline, type SpendGate } from '../providers/index.js';

export interface CostCommandSources {
  spend: SpendGate;
  configFile: string;
  agents(): readonly string[];
  /** Applies claw.json now (the watcher would, a moment later). */
  reload(): Promise<unknown>;
}

const WEEK = 7;

/** `/cost`: today's spend, this session's, the nearest cap and the week at a glance; `/cost set KEY VALUE`, `/cost resume`. */
export function createCostSlashCommand(s: CostCommandSources): SlashCommand {
  return {
    name: 'cost',
    // Spend and caps are the owner's business: a contact learns nothing of them.
    ownerOnly: true,
    aliases: ['usage'],
    args: '[set KEY VALUE | resume]',
    description: "Today's spend, this session's, the nearest cap and the last 7 days; set a cap or resume a session the runaway guard paused.",
    argument: () => ({ name: 'action', required: false, values: [{ value: 'set' }, { value: 'resume' }] }),
    async run({ sessionKey, args, host }) {
      const [action, key, value, ...extra] = args.split(/\s+/).filter(Boolean);
      if (action === 'resume') {
        const resumed = s.spend.resume(sessionKey);
        return { reply: resumed ? `Resumed ${sessionKey}: it may call the model again.` : `${sessionKey} was not paused.`, data: { resumed } };
      }
      if (action === 'set') {
        if (!key || value === undefined || extra.length > 0)
          throw new ClawError('bad_request', 'Usage: /cost set KEY VALUE, e.g. /cost set budgets.background.dailyUsd 2 (VALUE "off" removes the cap).');
        let set: number | null;
        try {
          set = setBudget(s.configFile, key, value);
        } catch (error) {
          if (error instanceof ConfigError) throw new ClawError('bad_request', `${error.message} Nothing was written.`);
          throw error;
        }
        await s.reload();
        return { reply: `${key} = ${set === null ? 'off (no cap)' : String(set)}; it applies to the next model call.`, data: { key, value: set } };
      }
      if (action) throw new ClawError('bad_request', `Unknown /cost action "${action}"; use /cost, /cost set KEY VALUE or /cost resume.`);
      const status = s.spend.status(s.agents());
      const session = await host.session(sessionKey);
      const { day, rows } = s.spend.usage(WEEK);
      const week = dailySpend(rows, day, WEEK, 'usd').map((d) => d.interactive + d.background);
      const lines = [
        `today    ${formatAmount('usd', status.today.usd)} · ${formatAmount('tokens', status.today.tokens)} · ${status.today.calls} calls (interactive ${formatAmount('usd', status.interactive.usd)}, background ${formatAmount('usd', status.background.usd)})`,
        `session  ${formatAmount('usd', session.costUsd)} · ${formatAmount('tokens', session.tokens.input + session.tokens.output)}`,
        `7 days   ${sparkline(week)} ${formatAmount(
          'usd',
          week.reduce((sum, usd) => sum + usd, 0),
        )}`,
      ];
      const near = status.nearest;
      if (near)
        lines.push(
          `nearest  ${near.key}: ${formatAmount(near.unit, near.used)} of ${formatAmount(near.unit, near.cap)} (${Math.round((near.used / near.cap) * 100)}%)`,
        );
      const paused = status.paused.find((p) => p.sessionKey === sessionKey);
      if (paused) lines.push(`paused   ${paused.reason}; /cost resume lets it call the model again`);
      lines.push('`claw budget` lists every cap; `claw usage` draws the chart.');
      return { reply: lines.join('\n'), data: { status, sessionUsd: session.costUsd, week } };
    },
  };
}
