import { z } from 'zod';
import type { CommandContext, SlashCommand } from './types.js';

const modelList = z.object({ models: z.array(z.string()) });

/** Models the gateway knows (from `/model` data) plus those sessions already use. */
async function knownModels({ controller, store }: CommandContext): Promise<string[]> {
  const models = new Set<string>();
  if (controller.serves('commands.run')) {
    const { data } = await controller.call('commands.run', { sessionKey: store.getState().currentKey, text: '/models' });
    const parsed = modelList.safeParse(data);
    if (parsed.success) for (const m of parsed.data.models) models.add(m);
  }
  for (const s of Object.values(store.getState().sessions)) if (s.model) models.add(s.model);
  return [...models].sort();
}

export async function setModel(ref: string, { controller, store }: CommandContext): Promise<void> {
  const { session } = await controller.call('sessions.patch', { key: store.getState().currentKey, patch: { model: ref === 'default' ? null : ref } });
  controller.notice(`Model for this session: ${session.model ?? 'agent default'}.`);
}

export const modelCommand: SlashCommand = {
  name: 'model',
  aliases: ['m'],
  args: '[provider/model]',
  description: 'Show or set this session\'s model (no argument opens a picker)',
  complete: (partial, { store }) => [...new Set(Object.values(store.getState().sessions).flatMap((s) => (s.model ? [s.model] : [])))].filter((m) => m.startsWith(partial)),
  async run(args, context) {
    const ref = args.trim();
    if (ref) return setModel(ref, context);
    const options = ['default', ...(await knownModels(context))];
    context.store.update((s) => ({ ...s, ui: { ...s.ui, picker: { title: 'Model for this session', options, index: 0, command: 'model' } } }));
  },
};
