import type { Clock } from '../../config/index.js';
import { streamAnthropic } from '../anthropic.js';
import { isProviderError } from '../errors.js';
import { streamOpenAI } from '../openai.js';
import type { SetupCandidate, SetupTestResult } from '../../protocol/index.js';
import type { ResolvedModel, WireRequest } from '../types.js';

const TEST_PROMPT = 'Reply with one short word to confirm you can hear me.';
/** Enough for a reasoning model to think briefly and still answer. */
const TEST_MAX_TOKENS = 256;
const TEST_TIMEOUT_MS = 45_000;

/**
 * One tiny streamed request through the same wire client chats use, so what
 * passes here works in the chat; a failure is the provider's own error.
 */
export async function runTestRequest(
  candidate: Pick<SetupCandidate, 'provider' | 'api' | 'baseUrl'>,
  modelId: string,
  apiKey: string | undefined,
  clock: Pick<Clock, 'now'>,
): Promise<SetupTestResult> {
  const started = clock.now();
  const model: ResolvedModel = {
    ref: `${candidate.provider}/${modelId}`,
    provider: candidate.provider,
    id: modelId,
    api: candidate.api,
    baseUrl: candidate.baseUrl,
    headers: {},
    contextWindow: 8192,
    maxOutput: TEST_MAX_TOKENS,
    cost: { input: 0, output: 0 },
    reasoning: false,
    known: false,
  };
  const request: WireRequest = {
    model,
    auth: { id: 'setup', apiKey },
    system: '',
    messages: [{ role: 'user', content: TEST_PROMPT }],
    tools: [],
    thinking: 'off',
    maxOutputTokens: TEST_MAX_TOKENS,
    signal: AbortSignal.timeout(TEST_TIMEOUT_MS),
    idleTimeoutMs: TEST_TIMEOUT_MS,
  };
  let text = '';
  try {
    const stream = candidate.api === 'anthropic' ? streamAnthropic(request) : streamOpenAI(request);
    for await (const event of stream) if (event.type === 'text_delta') text += event.text;
  } catch (error) {
    return { ok: false, error: isProviderError(error) || error instanceof Error ? error.message : String(error), ms: clock.now() - started };
  }
  const answer = text.trim();
  if (!answer) return { ok: false, error: `${model.ref} answered with no text; try another model.`, ms: clock.now() - started };
  return { ok: true, text: answer.slice(0, 500), ms: clock.now() - started };
}
