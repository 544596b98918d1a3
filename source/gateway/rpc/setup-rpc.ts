import { writeOnboardingNamesSync } from '../../agent/index.js';
import type { Core } from '../../core/index.js';
import { defaultAgentId } from '../../routing/index.js';
import { ClawError, type SetupCandidate } from '../../protocol/index.js';
import { applySetupSync, candidateKey, checkSetupStatus, detectProviders, fetchModelIds, runTestRequest, setupChoices } from '../../providers/index.js';
import { agentWorkspaceDir } from '../../skills/index.js';
import type { HandlerTable } from '../module.js';

/**
 * setup.*: first-run onboarding served by the gateway, so the TUI (which may
 * only speak the protocol) and `claw setup` run the same detection, test
 * request and write, with the gateway's own environment and network view,
 * and a saved model works for the next message without a restart.
 */
export function setupRpc(core: Core): HandlerTable {
  const { paths, env } = core;
  const keyFor = (candidate: SetupCandidate, typed: string | undefined): string | undefined => candidateKey(candidate, typed, env, paths.credentials);
  return {
    'setup.status': () => checkSetupStatus({ config: core.config.current, paths, env, providers: core.providers }),
    'setup.detect': async () => {
      const detected = await detectProviders({ env, credentialsDir: paths.credentials });
      return { candidates: setupChoices(detected, paths.credentials) };
    },
    'setup.models': async ({ candidate, apiKey }) => {
      const listed = await fetchModelIds(candidate, keyFor(candidate, apiKey));
      return listed.ok ? { models: listed.models } : { models: [], error: listed.error };
    },
    'setup.test': ({ candidate, model, apiKey }) => runTestRequest(candidate, model, keyFor(candidate, apiKey), core.clock),
    'setup.apply': async ({ candidate, model, apiKey, role, agentName, userName }) => {
      let written: ReturnType<typeof applySetupSync>;
      try {
        written = applySetupSync(paths, { candidate, model, apiKey, role });
      } catch (error) {
        throw new ClawError('bad_request', error instanceof Error ? error.message : String(error));
      }
      // Applied now rather than when the file watcher fires, so the next message uses it.
      core.events.emit('config', await core.config.reload());
      const workspace = agentWorkspaceDir(core.config.current, paths, defaultAgentId(core.config.current));
      const identityFiles = writeOnboardingNamesSync(workspace, { agentName, userName });
      return { ...written, identityFiles };
    },
  };
}
