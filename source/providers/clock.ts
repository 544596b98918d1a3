import { ProviderError } from './errors.js';
import type { Clock } from './types.js';

export const realClock: Clock = {
  now: () => Date.now(),
  random: () => Math.random(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(new ProviderError('aborted', 'The request was cancelled while waiting to retry.'));
        return;
      }
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(new ProviderError('aborted', 'The request was cancelled while waiting to retry.'));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
