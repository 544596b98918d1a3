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

/** Model names an Ollama server offers, or undefined when none answers in time. */
export async function probeOllamaModels(env: NodeJS.ProcessEnv, timeoutMs = 1500): Promise<string[] | undefined> {
  try {
    const response = await fetch(`${ollamaOrigin(env)}/api/tags`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    const body: unknown = await response.json();
    if (typeof body !== 'object' || body === null || !Array.isArray((body as { models?: unknown }).models)) return undefined;
    return (body as { models: unknown[] }).models.flatMap((entry) =>
      typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string' ? [(entry as { name: string }).name] : [],
    );
  } catch {
    return undefined;
  }
}
