import type { SetupCandidate, SetupStatus } from '../../protocol/index.js';

export type SetupStep = 'detecting' | 'provider' | 'url' | 'key' | 'models' | 'model' | 'testing' | 'failed' | 'agentName' | 'userName' | 'saving' | 'done';

/** The full-screen first-run setup, one step at a time (the same steps as `claw setup`). */
export interface SetupUi {
  step: SetupStep;
  candidates: readonly SetupCandidate[];
  /** The highlighted row of the list the step shows. */
  index: number;
  candidate?: SetupCandidate;
  /** Typed in the key step; sent to the gateway, never drawn. */
  apiKey?: string;
  models: readonly string[];
  model?: string;
  /** The line being typed: a URL, a key, a model filter or id, a name. */
  text: string;
  /** The last failure (detection, model list, test request, save), word for word. */
  error?: string;
  /** The model's answer to the test request. */
  answer?: string;
  agentName?: string;
  /** What was saved, one fact per line, for the last step. */
  saved?: readonly string[];
}

/** A stand-in row for "any OpenAI-compatible URL" after the detected and named providers. */
export const CUSTOM_ROW = 'Any OpenAI-compatible URL (llama.cpp, vLLM, LM Studio, a remote server)';

export function startingSetup(): SetupUi {
  return { step: 'detecting', candidates: [], index: 0, models: [], text: '' };
}

/** Models matching what is typed (substring, case-insensitive); all of them with nothing typed. */
export function filteredModels(setup: SetupUi): readonly string[] {
  const typed = setup.text.trim().toLowerCase();
  return typed ? setup.models.filter((m) => m.toLowerCase().includes(typed)) : setup.models;
}

/** Rows of the list the current step shows, for moving the highlight. */
export function listLength(setup: SetupUi): number {
  if (setup.step === 'provider') return setup.candidates.length + 1;
  if (setup.step === 'model') return filteredModels(setup).length;
  return 0;
}

export function needsTypedKey(candidate: SetupCandidate): boolean {
  return candidate.source === 'custom' || (candidate.needsKey && !candidate.keyFound);
}

/** The footer's model: what the session or the gateway says; never a made-up "default model" when there is none. */
export function footerModel(status: SetupStatus | undefined, modelMissing: boolean): string {
  if (status?.model) return status.model;
  return modelMissing || status?.configured === false ? 'no model' : 'default model';
}
