import type { ClawConfig, StatePaths } from '../../config/index.js';
import type { SetupStatus } from '../../protocol/index.js';
import { providerSettings, resolveModelRef } from '../catalogue.js';
import { authProfilesFor, missingKeyMessage } from '../credentials.js';
import type { Providers } from '../types.js';
import { fetchModelIds } from './model-list.js';

const CHECK_TIMEOUT_MS = 3000;
const FIX = 'claw setup';

/**
 * Whether the default model can work: configured at all, its provider known,
 * a key present, and the provider answering its model list (which costs
 * nothing and refuses a bad key). Never throws: a problem is a result.
 */
export async function checkSetupStatus(options: { config: ClawConfig; paths: StatePaths; env: NodeJS.ProcessEnv; providers: Providers }): Promise<SetupStatus> {
  const { config, paths, env, providers } = options;
  let model: string | undefined;
  try {
    model = config.agents.defaults.model ?? (await providers.defaultModel());
  } catch (error) {
    return { configured: false, model: null, problem: { message: error instanceof Error ? error.message : String(error), fix: FIX } };
  }
  if (!model) return { configured: false, model: null };
  try {
    const settings = providerSettings(config, env);
    const resolved = resolveModelRef(settings, model);
    const provider = settings.get(resolved.provider)!;
    const [profile] = authProfilesFor(provider, paths.credentials, env);
    if (!profile) return { configured: true, model, problem: { message: missingKeyMessage(provider, paths.credentials), fix: FIX } };
    const listed = await fetchModelIds(resolved, profile.apiKey, CHECK_TIMEOUT_MS);
    if (!listed.ok) return { configured: true, model, problem: { message: `${resolved.provider} is not answering: ${listed.error}`, fix: FIX } };
    // Anthropic accepts aliases its list does not show; other servers list every id they serve.
    if (resolved.api === 'openai' && listed.models.length > 0 && !listed.models.includes(resolved.id)) {
      return { configured: true, model, problem: { message: `${resolved.provider} does not offer the model "${resolved.id}".`, fix: FIX } };
    }
    return { configured: true, model };
  } catch (error) {
    return { configured: true, model, problem: { message: error instanceof Error ? error.message : String(error), fix: FIX } };
  }
}
