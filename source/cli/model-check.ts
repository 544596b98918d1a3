import { statePaths, validateConfig } from '../config/index.js';
import { createProviders } from '../providers/index.js';

/**
 * `claw config set agents.defaults.model nope/x` must fail like `/model nope/x`:
 * a model key is checked against the providers the new config would have.
 * Returns the refusal to print, or undefined when the value is a known model.
 */
export async function refuseUnknownModel(raw: Record<string, unknown>, key: string, value: unknown): Promise<string | undefined> {
  if (!/(^|\.)model$/.test(key) || typeof value !== 'string') return undefined;
  const paths = statePaths();
  const providers = createProviders({ config: validateConfig(raw, paths.config), paths });
  try {
    providers.resolveModel(value);
    return undefined;
  } catch (error) {
    const known = (await providers.listModels()).map((m) => m.ref);
    return `claw config: ${key} was not changed: ${error instanceof Error ? error.message : String(error)}\nKnown models: ${known.length > 0 ? known.join(', ') : 'none yet (see `claw models list`)'}.`;
  }
}
