import { approvalModeName, ClawError, type CommandData } from '../../protocol/index.js';
import type { SlashCommand } from './types.js';

const EXPLAINED: Record<string, string> = {
  ask: 'commands ask as the approval policy says',
  'auto-edit': 'sandboxed commands (workspace writes only, no network) run without asking',
  plan: 'no tool that writes, runs, sends or schedules: the agent plans, it does not act',
};

/** `/mode [ask|auto-edit|plan]`: how the owner's turns in this session ask before acting (Shift+Tab in the TUI). */
export const modeCommand: SlashCommand = {
  name: 'mode',
  aliases: [],
  args: 'ask|auto-edit|plan',
  description: 'Show or set how turns here ask before acting: ask, auto-edit (sandboxed commands unasked), plan (no side effects). Shift+Tab in the TUI',
  ownerOnly: true,
  argument: () => ({ name: 'mode', required: false, values: approvalModeName.options.map((value) => ({ value, description: EXPLAINED[value] })) }),
  async run({ sessionKey, args, host }) {
    if (!args) {
      const mode = (await host.session(sessionKey)).approvalMode ?? 'ask';
      return { reply: `mode: ${mode} (${EXPLAINED[mode]})`, data: { mode } satisfies CommandData<'mode'> };
    }
    const parsed = approvalModeName.safeParse(args.trim().toLowerCase());
    if (!parsed.success) throw new ClawError('bad_request', `Unknown mode "${args}". Use one of: ${approvalModeName.options.join(', ')}.`);
    // `ask` is the default: stored as no override, so the session file stays as it was.
    await host.patch(sessionKey, { approvalMode: parsed.data === 'ask' ? null : parsed.data });
    return { reply: `mode set to ${parsed.data}: ${EXPLAINED[parsed.data]}`, data: { mode: parsed.data } satisfies CommandData<'mode'> };
  },
};
