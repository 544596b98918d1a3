import type { Providers, SpendCharge } from '../../providers/index.js';
import type { Summariser } from './compact.js';

/** A summariser that asks the session's model, without tools, through the providers' failover. */
export function providerSummariser(providers: Providers, model: string, fallbacks: readonly string[] = [], charge?: SpendCharge): Summariser {
  return async (request) => {
    const stream = providers.streamTurn({
      model,
      fallbacks,
      system: request.system,
      messages: [{ role: 'user', content: request.prompt }],
      tools: [],
      thinking: 'off',
      maxOutputTokens: request.maxOutputTokens,
      ...(charge ? { charge } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
    for await (const event of stream) {
      if (event.type === 'done') return event.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
    }
    throw new Error('the summary stream ended without a final message');
  };
}
