import { customSetupCandidate, type SetupCandidate } from '../../protocol/index.js';
import type { ApplyResult, SetupBackend } from './backend.js';
import type { Prompter } from './prompter.js';
import { describeSaved } from './summary.js';

const MODELS_SHOWN = 40;
const CUSTOM = 'Any OpenAI-compatible URL (llama.cpp, vLLM, LM Studio, a remote server)';

function choiceLine(c: SetupCandidate): string {
  const found = c.source !== 'preset' ? '  ← found' : c.keyFound ? '  ← key in credentials/' : '';
  return `${c.label} — ${c.detail}${found}`;
}

async function pickProvider(p: Prompter, backend: SetupBackend): Promise<SetupCandidate | undefined> {
  p.say('Looking for what this machine already has (environment keys, Ollama, local servers)…');
  const candidates = await backend.detect();
  const found = candidates.filter((c) => c.source !== 'preset').length;
  p.say(found > 0 ? `Found ${found}; they come first.` : 'Nothing found locally; pick a provider to add a key for.');
  for (;;) {
    const picked = await p.choose('Provider', [...candidates.map(choiceLine), CUSTOM]);
    if (typeof picked === 'number' && picked < candidates.length) return candidates[picked];
    if (picked === candidates.length) {
      const url = await p.ask('Base URL (e.g. http://127.0.0.1:8000/v1): ');
      try {
        return customSetupCandidate(url);
      } catch (error) {
        p.say(error instanceof Error ? error.message : String(error));
        continue;
      }
    }
    const byName = candidates.find((c) => c.provider === picked);
    if (byName) return byName;
    p.say(`"${picked}" is not on the list; type its number.`);
  }
}

async function askKey(p: Prompter, candidate: SetupCandidate): Promise<string | undefined> {
  if (candidate.source === 'custom') return (await p.askHidden('API key, if the server needs one (input hidden, Enter for none): ')) || undefined;
  if (!candidate.needsKey || candidate.keyFound) return undefined;
  for (;;) {
    const key = await p.askHidden(`Paste your ${candidate.label} API key (input hidden; saved to credentials/${candidate.provider}.json): `);
    if (key) return key;
    p.say('A key is needed for this provider. Paste it, or press Ctrl+C to stop.');
  }
}

async function pickModel(p: Prompter, backend: SetupBackend, candidate: SetupCandidate, apiKey: string | undefined): Promise<string> {
  const listed = await backend.models(candidate, apiKey);
  if (listed.error) p.say(`Could not fetch the model list: ${listed.error}`);
  const models = listed.models.length > 0 ? listed.models : (candidate.models ?? []);
  for (;;) {
    if (models.length === 0) {
      const typed = await p.ask('Model id: ');
      if (typed) return typed;
      continue;
    }
    if (models.length > MODELS_SHOWN) p.say(`${models.length} models; the first ${MODELS_SHOWN} are listed, or type any id.`);
    const picked = await p.choose('Model (number or id)', models.slice(0, MODELS_SHOWN));
    return typeof picked === 'number' ? models[picked]! : picked;
  }
}

/** The whole interactive `claw setup`; resolves with the exit code. */
export async function runInteractiveSetup(p: Prompter, backend: SetupBackend, offerInstall: () => Promise<void>): Promise<number> {
  const status = await backend.status();
  if (status.model)
    p.say(`Current model: ${status.model}${status.problem ? ` (${status.problem.message})` : ''}. This run adds another provider or replaces it.`);
  const candidate = await pickProvider(p, backend);
  if (!candidate) return 1;
  const apiKey = await askKey(p, candidate);
  let model = await pickModel(p, backend, candidate, apiKey);
  for (;;) {
    p.say(`Testing ${candidate.provider}/${model} with one tiny request…`);
    const result = await backend.test(candidate, model, apiKey);
    if (result.ok) {
      p.say(`✓ ${candidate.provider}/${model} answered in ${(result.ms / 1000).toFixed(1)} s: ${JSON.stringify(result.text)}`);
      break;
    }
    p.say(`✗ ${result.error}`);
    if (!(await p.yes('Try another model?', true))) {
      p.say('Nothing was saved.');
      return 1;
    }
    model = await pickModel(p, backend, candidate, apiKey);
  }
  let role: 'primary' | 'fallback' = 'primary';
  if (status.model && status.model !== `${candidate.provider}/${model}`) {
    role = (await p.yes(`Make it the main model? (No keeps ${status.model} as main and adds this as its fallback)`, !status.problem)) ? 'primary' : 'fallback';
  }
  p.say('Two optional questions (Enter skips each):');
  const agentName = await p.ask("The assistant's name: ");
  const userName = await p.ask('Your name: ');
  const saved: ApplyResult = await backend.apply({
    candidate,
    model,
    role,
    ...(apiKey ? { apiKey } : {}),
    ...(agentName ? { agentName } : {}),
    ...(userName ? { userName } : {}),
  });
  p.say(describeSaved(saved, backend.where));
  if (await p.yes('Keep the gateway running as a system service (claw gateway install)?', false)) await offerInstall();
  return 0;
}
