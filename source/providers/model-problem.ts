import type { Providers } from './types.js';

/** Why a model ref cannot be used now (unknown provider, no credentials), or undefined when it can. */
export function modelProblem(providers: Pick<Providers, 'resolveModel'>, ref: string): string | undefined {
  try {
    providers.resolveModel(ref);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
