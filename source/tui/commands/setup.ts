import { openSetup } from '../setup/setup-flow.js';
import type { SlashCommand } from './types.js';

export const setupCommand: SlashCommand = {
  quiet: true,
  name: 'setup',
  aliases: ['onboard'],
  args: '',
  description: 'Add or change the model provider: detect, key, model, test request, save (no restart)',
  run: (_args, context) => openSetup(context),
};
