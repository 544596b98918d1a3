import { ClawError } from '../../protocol/index.js';
import type { SlashCommand } from './types.js';

const when = (at: number | undefined): string => (at === undefined ? '—' : new Date(at).toISOString().replace(/:\d\d\.\d{3}Z$/, 'Z'));

export const cronCommand: SlashCommand = {
  name: 'cron',
  ownerOnly: true,
  aliases: [],
  args: '[run <job id>]',
  description: 'Cron jobs with their next run and last status; `/cron run <id>` runs one now.',
  async run({ args, host }) {
    const schedule = host.schedule;
    if (!schedule) throw new ClawError('unavailable', 'This gateway runs no schedule service; cron is not available here.');
    const [sub, id] = args.split(/\s+/).filter(Boolean);
    if (sub === 'run') {
      if (!id) throw new ClawError('bad_request', 'Usage: /cron run <job id> (see /cron for the ids).');
      const run = schedule.run(id);
      return { reply: `started ${id} (slot ${when(run.scheduledAt)})`, data: { run } };
    }
    if (sub) throw new ClawError('bad_request', `Unknown /cron argument "${sub}". Use /cron or /cron run <job id>.`);
    const { jobs, notices } = schedule.overview();
    const lines =
      jobs.length === 0
        ? ['No cron jobs. Ask me to schedule something, or use `claw cron add`.']
        : jobs.map(
            (job) =>
              `${job.enabled ? '●' : '○'} ${job.name} (${job.id}) next ${when(job.state.nextRunAt)} · last ${job.state.lastStatus ?? '—'}${job.state.blockedReason ? ` · ${job.state.blockedReason}` : ''}`,
          );
    return { reply: [...lines, ...notices.map((notice) => `! ${notice}`)].join('\n'), data: { jobs } };
  },
};
