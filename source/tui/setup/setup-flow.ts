import { customSetupCandidate, type SetupCandidate } from '../../protocol/index.js';
import type { CommandContext } from '../commands/types.js';
import { filteredModels, needsTypedKey, startingSetup, type SetupUi } from './setup-state.js';

type Patch = Partial<SetupUi>;

function patch(context: CommandContext, change: Patch): void {
  context.store.update((s) => (s.setup ? { ...s, setup: { ...s.setup, ...change } } : s));
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Opens the setup screen and asks the gateway what this machine has. */
export async function openSetup(context: CommandContext): Promise<void> {
  if (!context.controller.serves('setup.detect')) {
    context.controller.error('This gateway does not serve setup yet.', 'Update claw, restart the gateway, then /setup:\n  claw gateway restart');
    return;
  }
  context.store.update((s) => ({ ...s, setup: startingSetup() }));
  try {
    const { candidates } = await context.controller.call('setup.detect', {});
    patch(context, { step: 'provider', candidates, index: 0 });
  } catch (error) {
    patch(context, { step: 'failed', error: message(error) });
  }
}

export function closeSetup(context: CommandContext): void {
  context.store.update((s) => {
    const { setup: _closed, ...rest } = s;
    return rest;
  });
}

export function chooseProvider(context: CommandContext, setup: SetupUi): void {
  const candidate = setup.candidates[setup.index];
  if (!candidate) return patch(context, { step: 'url', text: '' });
  return takeCandidate(context, candidate);
}

function takeCandidate(context: CommandContext, candidate: SetupCandidate): void {
  if (needsTypedKey(candidate)) return patch(context, { step: 'key', candidate, text: '', error: undefined });
  void loadModels(context, candidate, undefined);
}

export function submitUrl(context: CommandContext, setup: SetupUi): void {
  try {
    takeCandidate(context, customSetupCandidate(setup.text));
  } catch (error) {
    patch(context, { error: message(error) });
  }
}

export function submitKey(context: CommandContext, setup: SetupUi): void {
  const key = setup.text.trim();
  if (!key && setup.candidate?.source !== 'custom') return patch(context, { error: 'A key is needed for this provider; paste it, or Esc to leave setup.' });
  if (setup.candidate) void loadModels(context, setup.candidate, key || undefined);
}

async function loadModels(context: CommandContext, candidate: SetupCandidate, apiKey: string | undefined): Promise<void> {
  patch(context, { step: 'models', candidate, apiKey, text: '', error: undefined });
  try {
    const listed = await context.controller.call('setup.models', { candidate, ...(apiKey ? { apiKey } : {}) });
    const models = listed.models.length > 0 ? listed.models : (candidate.models ?? []);
    patch(context, { step: 'model', models, index: 0, text: '', ...(listed.error ? { error: `Could not fetch the model list: ${listed.error}` } : {}) });
  } catch (error) {
    patch(context, { step: 'model', models: candidate.models ?? [], index: 0, text: '', error: message(error) });
  }
}

export function chooseModel(context: CommandContext, setup: SetupUi): void {
  const model = filteredModels(setup)[setup.index] ?? setup.text.trim();
  if (!model || !setup.candidate) return;
  void testModel(context, setup.candidate, model, setup.apiKey);
}

async function testModel(context: CommandContext, candidate: SetupCandidate, model: string, apiKey: string | undefined): Promise<void> {
  patch(context, { step: 'testing', model, error: undefined });
  try {
    const result = await context.controller.call('setup.test', { candidate, model, ...(apiKey ? { apiKey } : {}) });
    if (result.ok) patch(context, { step: 'agentName', answer: result.text ?? '', text: '' });
    else patch(context, { step: 'failed', error: result.error ?? 'the test request failed' });
  } catch (error) {
    patch(context, { step: 'failed', error: message(error) });
  }
}

/** After a failed test: back to the model list (or to the start when nothing was chosen yet). */
export function retryAfterFailure(context: CommandContext, setup: SetupUi): void {
  if (!setup.candidate) return void openSetup(context);
  patch(context, { step: 'model', text: '', index: 0, error: undefined });
}

export function submitName(context: CommandContext, setup: SetupUi): void {
  const name = setup.text.trim();
  if (setup.step === 'agentName') return patch(context, { step: 'userName', text: '', ...(name ? { agentName: name } : {}) });
  void save(context, setup, name || undefined);
}

async function save(context: CommandContext, setup: SetupUi, userName: string | undefined): Promise<void> {
  const { candidate, model, apiKey, agentName } = setup;
  if (!candidate || !model) return;
  patch(context, { step: 'saving', text: '' });
  try {
    const saved = await context.controller.call('setup.apply', {
      candidate,
      model,
      ...(apiKey ? { apiKey } : {}),
      role: 'primary',
      ...(agentName ? { agentName } : {}),
      ...(userName ? { userName } : {}),
    });
    const lines = [
      `Saved ${saved.model} as the main model; the gateway uses it from your next message.`,
      ...(saved.fallbacks.length > 0 ? [`Fallbacks: ${saved.fallbacks.join(', ')}`] : []),
      ...(saved.credentialsFile ? [`Key: ${saved.credentialsFile} (0600)`] : []),
      `Config: ${saved.configFile}`,
      ...saved.identityFiles.map((file) => `Wrote ${file}`),
    ];
    context.store.update((s) => ({
      ...s,
      modelMissing: false,
      setupStatus: { configured: true, model: saved.model },
      ...(s.setup ? { setup: { ...s.setup, step: 'done', saved: lines, apiKey: undefined } } : {}),
    }));
  } catch (error) {
    patch(context, { step: 'failed', error: message(error) });
  }
}
