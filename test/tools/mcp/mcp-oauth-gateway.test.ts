import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpServerInfo } from '../../../source/protocol/index.js';
import { startFakeOAuthMcp, type FakeOAuthMcp } from '../../support/fake-oauth-mcp.js';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness.js';
import { waitFor } from '../../support/mcp-servers.js';
import { makeTempState, type TempState } from '../../support/temp-state.js';

let gateway: TestGateway | undefined;
let server: FakeOAuthMcp | undefined;
let state: TempState | undefined;
afterEach(async () => {
  await gateway?.stop();
  await server?.close();
  state?.cleanup();
  gateway = server = state = undefined;
});

const start = async (): Promise<TestGateway> =>
  startTestGateway({
    state: state!,
    config: { mcpServers: { remote: { url: server!.url, trust: 'allow' } } },
    core: { mcp: { backoff: { initialMs: 100, maxMs: 400 } } },
  });

async function remote(gateway: TestGateway, wanted: McpServerInfo['state']): Promise<McpServerInfo> {
  const client = await gateway.connect();
  try {
    return await waitFor(async () => {
      const info = (await client.request('mcp.list', {})).servers.find((entry) => entry.name === 'remote');
      return info?.state === wanted ? info : undefined;
    }, `remote ${wanted}`);
  } finally {
    client.close();
  }
}

describe('OAuth for a remote MCP server, through the gateway', { timeout: 90_000 }, () => {
  it('asks the owner to log in, completes when any user agent follows the URL, keeps the tokens across a restart and refreshes them; a revoked grant needs a login again', async () => {
    server = await startFakeOAuthMcp();
    state = makeTempState();
    gateway = await start();
    const watcher = await gateway.connect();
    const asked: Array<{ server: string; url: string }> = [];
    watcher.on('mcp.auth.required', (payload) => asked.push(payload as { server: string; url: string }));
    await remote(gateway, 'needs-login');
    // The first request may have been refused before this client attached: start the login again while it listens.
    await watcher.request('mcp.logout', { name: 'remote' });
    await waitFor(() => asked.length > 0, 'mcp.auth.required');
    const pending = await remote(gateway, 'needs-login');
    expect(pending.lastError).toContain('needs login: run `claw mcp login remote`');
    expect(pending.authUrl).toMatch(/\/authorize\?/);
    expect(asked.at(-1)!.url).toBe(pending.authUrl);

    // The owner's phone, a script: anything that follows the URL completes the login on the gateway's listener.
    const landed = await fetch(asked.at(-1)!.url, { redirect: 'follow' });
    expect(await landed.text()).toContain('claw is logged in to MCP server "remote"');
    const ready = await remote(gateway, 'ready');
    expect(ready.tools).toContain('mcp__remote__echo');
    const stored = join(state.paths.credentials, 'mcp', 'remote.json');
    expect(statSync(stored).mode & 0o777).toBe(0o600);
    const tokens = JSON.parse(readFileSync(stored, 'utf8')) as { tokens: { access_token: string } };
    expect(readFileSync(state.paths.config, 'utf8')).not.toContain(tokens.tokens.access_token);

    // A restart uses the stored tokens; an expired access token is refreshed without asking anyone.
    await gateway.stop();
    server.expireAccessTokens();
    gateway = await start();
    await remote(gateway, 'ready');
    expect(server.tokenGrants).toEqual(['authorization_code', 'refresh_token']);
    expect(server.authorizations).toHaveLength(1);

    // Revoked: the refresh fails and the server needs a login again, said in mcp.list.
    server.revokeAll();
    await gateway.stop();
    gateway = await start();
    const again = await remote(gateway, 'needs-login');
    expect(again.lastError).toContain('claw mcp login remote');
  });

  it('finishes a login with the address a browser on another machine ended on, pasted back (mcp.login callbackUrl)', async () => {
    server = await startFakeOAuthMcp();
    state = makeTempState();
    gateway = await start();
    await remote(gateway, 'needs-login');
    const client = await gateway.connect();
    const { url } = await client.request('mcp.login', { name: 'remote' });
    // The browser ran elsewhere: it could not reach the gateway's loopback listener, but its address bar holds the answer.
    const redirect = await fetch(url!, { redirect: 'manual' });
    const callbackUrl = redirect.headers.get('location')!;
    expect(callbackUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?code=/);
    await expect(client.request('mcp.login', { name: 'remote', callbackUrl: callbackUrl.replace(/state=[^&]+/, 'state=forged') })).rejects.toThrow(
      /did not match the login claw started/,
    );
    await client.request('mcp.login', { name: 'remote', callbackUrl });
    await remote(gateway, 'ready');
    const out = await client.request('mcp.logout', { name: 'remote' });
    expect(out.removed).toBe(true);
    await remote(gateway, 'needs-login');
  });
});
