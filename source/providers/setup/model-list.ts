import { classifyHttpError, classifyThrown } from '../classify.js';
import type { WireApi } from '../types.js';

export type ModelIdList = { ok: true; models: string[] } | { ok: false; error: string };

const ANTHROPIC_VERSION = '2023-06-01';

/**
 * The provider's own model list: `GET {baseUrl}/models` for OpenAI-compatible
 * servers (Ollama, llama.cpp, vLLM, LM Studio, OpenRouter, …), `GET /v1/models`
 * for Anthropic. A refusal comes back as the provider's own words.
 */
export async function fetchModelIds(target: { api: WireApi; baseUrl: string }, apiKey: string | undefined, timeoutMs = 10_000): Promise<ModelIdList> {
  const base = target.baseUrl.replace(/\/+$/, '');
  const url = target.api === 'anthropic' ? `${base}/v1/models?limit=100` : `${base}/models`;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (apiKey && target.api === 'anthropic') {
    headers['x-api-key'] = apiKey;
    headers['anthropic-version'] = ANTHROPIC_VERSION;
  } else if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    return { ok: false, error: classifyThrown(error, undefined, base, 'setup').message };
  }
  const text = await response.text().catch(() => '');
  if (!response.ok) {
    return {
      ok: false,
      error: classifyHttpError({ status: response.status, headers: response.headers, bodyText: text, model: url, profile: 'setup', now: 0 }).message,
    };
  }
  try {
    const body = JSON.parse(text) as { data?: { id?: unknown }[]; models?: { name?: unknown }[] };
    const entries = Array.isArray(body.data) ? body.data.map((m) => m.id) : Array.isArray(body.models) ? body.models.map((m) => m.name) : undefined;
    if (!entries) return { ok: false, error: `${url} answered, but not with a model list ({"data": [{"id": …}]}).` };
    return { ok: true, models: entries.filter((id): id is string => typeof id === 'string' && id.length > 0).sort() };
  } catch {
    return { ok: false, error: `${url} answered with something that is not JSON; is this an OpenAI-compatible server (its base URL usually ends in /v1)?` };
  }
}
