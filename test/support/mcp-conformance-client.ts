// The client under test for the official MCP conformance suite: claw's own MCP client
// (McpConnection, with its OAuth, elicitation inbox and transports), not an SDK client.
// The suite runs `<command> <server-url>` with MCP_CONFORMANCE_SCENARIO (and, for
// scenarios that need it, MCP_CONFORMANCE_CONTEXT: a pre-registered client, a secret,
// a private key). Like the gateway, it completes an authorization by following the
// authorization URL with a plain HTTP client: the suite's authorization server approves
// at once and redirects to claw's loopback listener.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpServerEntry } from '../../source/config/sections/mcp.js';
import { McpConnection } from '../../source/tools/mcp/connection.js';
import { ElicitationInbox } from '../../source/tools/mcp/elicitation.js';

const url = process.argv.at(-1)!;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as Record<string, string | undefined>;
const dir = mkdtempSync(join(tmpdir(), 'claw-mcp-conformance-'));
const env: NodeJS.ProcessEnv = {};
const oauth: Record<string, string> = {};
if (context.client_id) oauth.clientId = context.client_id;
if (context.client_secret) {
  env.CONFORMANCE_CLIENT_SECRET = context.client_secret;
  oauth.clientSecretEnv = 'CONFORMANCE_CLIENT_SECRET';
}
if (scenario.startsWith('auth/client-credentials')) oauth.grant = 'client_credentials';
if (context.private_key_pem) {
  const keyFile = join(dir, 'client-key.pem');
  writeFileSync(keyFile, context.private_key_pem, { mode: 0o600 });
  oauth.privateKeyFile = keyFile;
  if (context.signing_algorithm) oauth.signingAlgorithm = context.signing_algorithm;
}
const config = mcpServerEntry.parse({ url, ...(Object.keys(oauth).length > 0 ? { oauth } : {}) });

const inbox = new ElicitationInbox();
// The operator accepts every form without typing anything: claw fills in the schema's defaults.
inbox.on((event, record) => {
  if (event === 'requested') inbox.respond(record.id, { action: 'accept', content: {} }, 'conformance');
});

let settle: (() => void) | undefined;
const connection = new McpConnection('conformance', config as never, {
  backoff: { initialMs: 200, maxMs: 1000 },
  connectTimeoutMs: 10_000,
  now: () => Date.now(),
  onCatalog: () => undefined,
  onState: () => {
    console.error(`state ${connection.state}${connection.lastError ? `: ${connection.lastError}` : ''}`);
    if (connection.state === 'ready') settle?.();
  },
  roots: () => [],
  elicit: (server, params, signal) => inbox.ask(server, params, signal),
  auth: {
    dir: join(dir, 'credentials'),
    env,
    authorizationRequired: (_server, authorizationUrl) => {
      void fetch(authorizationUrl, { redirect: 'follow' }).catch((error: unknown) => console.error(`following the authorization URL failed: ${String(error)}`));
    },
  },
});

function waitReady(ms: number): Promise<void> {
  if (connection.state === 'ready') return Promise.resolve();
  return Promise.race([
    new Promise<void>((resolve) => {
      settle = resolve;
    }),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not ready: ${connection.lastError ?? connection.state}`)), ms)),
  ]);
}
const ready = waitReady(20_000);
connection.start();
let code = 0;
try {
  await ready;
  if (scenario === 'tools_call') await connection.call('add_numbers', { a: 5, b: 3 });
  if (scenario === 'elicitation-sep1034-client-defaults') await connection.call('test_client_elicitation_defaults', {});
  if (scenario === 'sse-retry') await connection.call('test_reconnection', {});
  // Every tool a scenario offers is called: authorization scenarios check the calls carry the token. A call that
  // needed a new login (more scope) is made again once the login is through, as the model would.
  if (scenario.startsWith('auth/'))
    for (const tool of connection.catalog.tools) {
      try {
        await connection.call(tool.name, {});
      } catch {
        await waitReady(10_000).catch(() => undefined);
        if (connection.state === 'ready') await connection.call(tool.name, {}).catch(() => undefined);
      }
    }
} catch (error) {
  console.error(String(error));
  code = 1;
} finally {
  await connection.close();
  inbox.close();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(code);
