import { selectFooter } from '../store/selectors.js';
import { runOnGateway } from './server-command.js';
import type { CommandContext, SlashCommand } from './types.js';

/** The gateway's `/model` argument values (models it knows now), `default` first, then the ones that work. */
function knownModels({ controller }: CommandContext): Array<{ value: string; description?: string | undefined }> {
  const model = controller.commands().find((c) => c.name === 'model');
  return model?.arguments?.[0]?.values ?? [{ value: 'default' }];
}

/** Switching goes through the gateway's own /model, which refuses unknown refs with the known ones. */
export function setModel(ref: string, context: CommandContext): Promise<void> {
  return runOnGateway(`/model ${ref}`, context);
}

/**
 * `/model` is the gateway's command; the TUI adds only its presentation: with
 * no argument it opens a picker built from the gateway's list of models.
 */
export const modelCommand: SlashCommand = {
  name: 'model',
  aliases: ['m'],
  args: '[provider/model | default]',
  description: "Pick or set this session's model",
  complete: (partial, context) =>
    knownModels(context)
      .map((m) => m.value)
      .filter((m) => m.startsWith(partial)),
  async run(args, context) {
    const ref = args.trim();
    if (ref) return setModel(ref, context);
    await context.controller.loadCommands();
    const known = knownModels(context);
    // The default model's provider failed its quick check: its models are not answering now, so they go after the ones that are.
    const status = context.store.getState().setupStatus;
    const failing = status?.problem && status.model ? `${status.model.split('/')[0]}/` : undefined;
    const down = (value: string) => failing !== undefined && value.startsWith(failing);
    // `default` first, then what answers, then what is not answering, then what cannot (no key, cooling down).
    const rank = (m: { value: string; description?: string | undefined }) =>
      m.value === 'default' ? 0 : down(m.value) ? 2 : m.description === 'no key set' || m.description?.startsWith('cooling') ? 3 : 1;
    const ordered = known
      .map((m, order) => ({ m, order }))
      .sort((a, b) => rank(a.m) - rank(b.m) || a.order - b.order)
      .map(({ m }) => m);
    const options = ordered.map((m) => m.value);
    const descriptions = Object.fromEntries(ordered.map((m) => [m.value, down(m.value) ? `not answering · ${m.description ?? ''}` : (m.description ?? '')]));
    const current = selectFooter(context.store.getState()).model;
    context.store.update((s) => ({
      ...s,
      ui: { ...s.ui, picker: { title: 'Model for this session', options, descriptions, current, filter: '', index: 0, command: 'model' } },
    }));
  },
};
