import { writeOnboardingNamesSync } from '../../agent/index.js';
import { findLocalGateway, GatewayClient } from '../../client/index.js';
import { loadConfig, systemClock, type StatePaths } from '../../config/index.js';
import type { ParamsOf, ResultOf, SetupCandidate, SetupStatus, SetupTestResult } from '../../protocol/index.js';
import {
  applySetupSync,
  candidateKey,
  checkSetupStatus,
  createProviders,
  detectProviders,
  fetchModelIds,
  runTestRequest,
  setupChoices,
} from '../../providers/index.js';
import { defaultAgentId } from '../../routing/index.js';
import { agentWorkspaceDir } from '../../skills/index.js';
import { clientName } from '../client-name.js';

export type ApplyParams = ParamsOf<'setup.apply'>;
export type ApplyResult = ResultOf<'setup.apply'>;

/**
 * Where `claw setup` does its work: in the running gateway (its environment,
 * and the saved model applies at once), or, with no gateway running, in this
 * process against the files the gateway will read when it starts.
 */
export interface SetupBackend {
  readonly where: 'gateway' | 'local';
  status(): Promise<SetupStatus>;
  detect(): Promise<SetupCandidate[]>;
  models(candidate: SetupCandidate, apiKey?: string): Promise<{ models: string[]; error?: string | undefined }>;
  test(candidate: SetupCandidate, model: string, apiKey?: string): Promise<SetupTestResult>;
  apply(params: ApplyParams): Promise<ApplyResult>;
  close(): void;
}

const SETUP_METHODS = ['setup.status', 'setup.detect', 'setup.models', 'setup.test', 'setup.apply'];

function withKey(apiKey: string | undefined): { apiKey?: string } {
  return apiKey ? { apiKey } : {};
}

function gatewayBackend(client: GatewayClient): SetupBackend {
  return {
    where: 'gateway',
    status: () => client.request('setup.status', {}),
    detect: async () => (await client.request('setup.detect', {})).candidates,
    models: (candidate, apiKey) => client.request('setup.models', { candidate, ...withKey(apiKey) }),
    test: (candidate, model, apiKey) => client.request('setup.test', { candidate, model, ...withKey(apiKey) }, { timeoutMs: 60_000 }),
    apply: (params) => client.request('setup.apply', params),
    close: () => client.close(),
  };
}

export function localBackend(paths: StatePaths, env: NodeJS.ProcessEnv): SetupBackend {
  const keyFor = (candidate: SetupCandidate, typed: string | undefined) => candidateKey(candidate, typed, env, paths.credentials);
  return {
    where: 'local',
    status: () => {
      const config = loadConfig(paths.config);
      return checkSetupStatus({ config, paths, env, providers: createProviders({ config, paths, env }) });
    },
    detect: async () => setupChoices(await detectProviders({ env, credentialsDir: paths.credentials }), paths.credentials),
    models: async (candidate, apiKey) => {
      const listed = await fetchModelIds(candidate, keyFor(candidate, apiKey));
      return listed.ok ? { models: listed.models } : { models: [], error: listed.error };
    },
    test: (candidate, model, apiKey) => runTestRequest(candidate, model, keyFor(candidate, apiKey), systemClock),
    apply: async ({ candidate, model, apiKey, role, agentName, userName }) => {
      const written = applySetupSync(paths, { candidate, model, apiKey, role });
      const config = loadConfig(paths.config);
      const identityFiles = writeOnboardingNamesSync(agentWorkspaceDir(config, paths, defaultAgentId(config)), { agentName, userName });
      return { ...written, identityFiles };
    },
    close: () => undefined,
  };
}

/** The running gateway's backend when it serves setup.*, else this process's. */
export async function openSetupBackend(paths: StatePaths, env: NodeJS.ProcessEnv): Promise<{ backend: SetupBackend; note?: string }> {
  const gateway = findLocalGateway(paths);
  if (!gateway) return { backend: localBackend(paths, env) };
  const client = new GatewayClient({ url: gateway.url, token: env.CLAW_GATEWAY_TOKEN || gateway.token, reconnect: false, clientName: clientName('cli') });
  try {
    const hello = await client.connect();
    if (SETUP_METHODS.every((method) => hello.methods.includes(method))) return { backend: gatewayBackend(client) };
    client.close();
    return {
      backend: localBackend(paths, env),
      note: `The running gateway (v${hello.server.version}) predates \`claw setup\`; the files are written directly. Restart it afterwards:\n  claw gateway restart`,
    };
  } catch (error) {
    client.close();
    return {
      backend: localBackend(paths, env),
      note: `Could not reach the running gateway (${error instanceof Error ? error.message : String(error)}); the files are written directly.`,
    };
  }
}
