import { isProviderError } from '../../providers/index.js';
import { ClawError, type CommandArgument, type CommandData } from '../../protocol/index.js';
import type { Providers } from '../../providers/index.js';
import type { SlashCommand } from './types.js';

/** Refuses a ref the providers cannot resolve, with the way to find a good one. */
export async function checkModelRef(providers: Providers, ref: string): Promise<void> {
  try {
    providers.resolveModel(ref);
  } catch (error) {
    if (!isProviderError(error)) throw error;
    const known = (await providers.listModels()).map((m) => m.ref);
    throw new ClawError('bad_request', `${error.message} Known models: ${known.length > 0 ? known.join(', ') : 'none yet (see `claw models list`)'}.`);
  }
}

/**
 * The models a session can switch to now, `default` first, then the ones that
 * can answer (a key or a keyless server, not cooling down), each saying why
 * not when it cannot.
 */
export async function modelArgument(providers: Providers, name: string, withDefault: boolean): Promise<CommandArgument> {
  const listing = await providers.listModels();
  const cooling = new Map<string, string>();
  for (const cooldown of providers.cooldowns()) {
    if (cooldown.scope === 'model') cooling.set(cooldown.label, cooldown.kind);
  }
  const described = listing.map((m) => {
    const coolingKind = cooling.get(m.ref);
    const works = m.ready && !coolingKind;
    const description = !m.ready ? 'no key set' : coolingKind ? `cooling down (${coolingKind})` : `${Math.round(m.contextWindow / 1000)}k context`;
    return { works, value: { value: m.ref, description } };
  });
  const values = [...described.filter((m) => m.works), ...described.filter((m) => !m.works)].map((m) => m.value);
  return { name, required: false, values: withDefault ? [{ value: 'default', description: "the agent's model" }, ...values] : values };
}

export const modelCommand: SlashCommand = {
  name: 'model',
  ownerOnly: true,
  aliases: ['models'],
  args: '[provider/model | default]',
  description: 'Show the session model, or switch it (default clears the override).',
  argument: (providers) => modelArgument(providers, 'model', true),
  async run({ sessionKey, args, host, providers, resolveModel }) {
    if (!args) {
      const session = await host.session(sessionKey);
      const current = await resolveModel(session);
      const listing = await providers.listModels();
      const lines = listing.map((m) => `  ${m.ref === current ? '*' : ' '} ${m.ref}${m.ready ? '' : ' (no key)'}`);
      return {
        reply: [`model: ${current ?? 'none configured'}`, ...(lines.length ? ['available:', ...lines] : [])].join('\n'),
        data: { model: current, models: listing } satisfies CommandData<'model'>,
      };
    }
    if (args === 'default') {
      const session = await host.patch(sessionKey, { model: null });
      return {
        reply: `model override cleared; using ${(await resolveModel(session)) ?? 'none configured'}`,
        data: { model: session.model } satisfies CommandData<'model'>,
      };
    }
    await checkModelRef(providers, args);
    await host.patch(sessionKey, { model: args });
    return { reply: `model set to ${args} for this session`, data: { model: args } satisfies CommandData<'model'> };
  },
};
