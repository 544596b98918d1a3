import { z } from 'zod';
import { lazySchema } from '../protocol/index.js';

/** `OLLAMA_HOST` as Ollama itself reads it: `host`, `host:port` or a URL; default 127.0.0.1:11434. */
export function ollamaOrigin(env: NodeJS.ProcessEnv): string {
  const raw = env.OLLAMA_HOST?.trim() || '127.0.0.1:11434';
  const withScheme = /^[a-z]+:\/\//i.test(raw) ? raw : `http://${raw}`;
  const url = new URL(withScheme);
  if (!url.port && !/^[a-z]+:\/\/[^/]+:\d+/i.test(withScheme)) url.port = '11434';
  // 0.0.0.0 is a listen address; connect over loopback.
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  return url.origin;
}

const tagsResponse = lazySchema(() => z.object({ models: z.array(z.object({ name: z.string() })) }));

/** Model names an Ollama server offers, or undefined when none answers in time. */
export async function probeOllamaModels(env: NodeJS.ProcessEnv, timeoutMs = 1500): Promise<string[] | undefined> {
  try {
    const response = await fetch(`${ollamaOrigin(env)}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    const parsed = tagsResponse.safeParse(await response.json());
    return parsed.success ? parsed.data.models.map((entry) => entry.name) : undefined;
  } catch {
    return undefined;
  }
}
