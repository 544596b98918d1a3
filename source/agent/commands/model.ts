import { isProviderError } from '../../providers/index.js';
import { ClawError } from '../../protocol/index.js';
import type { Providers } from '../../providers/index.js';
import type { SlashCommand } from './types.js';

/** Refuses a ref the providers cannot resolve, with the way to find a good one. */
export function checkModelRef(providers: Providers, ref: string): void {
  try {
    providers.resolveModel(ref);
  } catch (error) {
    if (isProviderError(error)) throw new ClawError('bad_request', `${error.message} Use /model to list the models claw knows.`);
    throw error;
  }
}

export const modelCommand: SlashCommand = {
  name: 'model',
  aliases: ['models'],
  args: '[provider/model | default]',
  description: 'Show the session model, or switch it (default clears the override).',
  async run({ sessionKey, args, host, providers, resolveModel }) {
    if (!args) {
      const session = await host.session(sessionKey);
      const current = await resolveModel(session);
      const listing = await providers.listModels();
      const lines = listing.map((m) => `  ${m.ref === current ? '*' : ' '} ${m.ref}${m.ready ? '' : ' (no key)'}`);
      return { reply: [`model: ${current ?? 'none configured'}`, ...(lines.length ? ['available:', ...lines] : [])].join('\n'), data: { model: current, models: listing } };
    }
    if (args === 'default') {
      const session = await host.patch(sessionKey, { model: null });
      return { reply: `model override cleared; using ${(await resolveModel(session)) ?? 'none configured'}`, data: { model: session.model } };
    }
    checkModelRef(providers, args);
    await host.patch(sessionKey, { model: args });
    return { reply: `model set to ${args} for this session`, data: { model: args } };
  },
};
