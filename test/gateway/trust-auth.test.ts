import { mkdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { secureStateDirSync, writeRawConfig } from '../../source/config/index.js';
import { createScopedToken, listScopedTokens, revokeScopedToken } from '../../source/config/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState } from '../support/temp-state.js';
import { runCli } from '../support/cli-process.js';
import { UpgradeRefused, connectParams, openConnected, openRaw, type RawClient } from './raw-client.js';

let gw: TestGateway | undefined;
const raws: RawClient[] = [];

afterEach(async () => {
  for (const raw of raws.splice(0)) raw.ws.terminate();
  await gw?.stop();
  gw = undefined;
});

async function refusal(promise: Promise<unknown>): Promise<UpgradeRefused> {
  const error = await promise.then(
    (client) => {
      raws.push(client as RawClient);
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpgradeRefused);
  return error as UpgradeRefused;
}

describe('gateway: browser origins', () => {
  it.each(['http://evil.example', 'null', 'http://127.0.0.1:18789', 'http://localhost'])(
    'refuses an upgrade from origin %s with 403 and what to configure',
    async (origin) => {
      gw = await startTestGateway();
      const refused = await refusal(openRaw(gw.url, { headers: { origin } }));
      expect(refused.status).toBe(403);
      expect(refused.body).toContain('gateway.allowedOrigins');
    },
  );

  it('lets a configured origin and an origin-less client (CLI, TUI) in', async () => {
    gw = await startTestGateway({ config: { gateway: { allowedOrigins: ['http://localhost:5173'] } } });
    const browser = await openConnected(gw.url, gw.token, {}, { headers: { origin: 'http://localhost:5173' } });
    raws.push(browser.raw);
    expect(await browser.raw.request('health')).toMatchObject({ ok: true });
    const cli = await gw.connect();
    expect(cli.hello?.scopes).toContain('admin');
  });

  it('a page spraying wrong tokens never reaches the lockout: the operator still connects', async () => {
    gw = await startTestGateway();
    for (let i = 0; i < 15; i += 1)
      expect((await refusal(openRaw(gw.url, { headers: { origin: 'http://evil.example', authorization: 'Bearer wrong' } }))).status).toBe(403);
    const operator = await gw.connect();
    expect(operator.hello?.scopes).toEqual(expect.arrayContaining(['read', 'write', 'admin', 'approvals']));
  });
});

describe('gateway: scopes come from the token', () => {
  it('a scoped token gets only its scopes whatever the client claims, and stops working once revoked', async () => {
    gw = await startTestGateway();
    const { token, record } = createScopedToken(gw.state.paths, ['read']);
    const reader = await openConnected(gw.url, token, { scopes: ['read', 'write', 'admin', 'approvals'] });
    raws.push(reader.raw);
    expect(reader.hello.scopes).toEqual(['read']);
    expect(await reader.raw.request('health')).toMatchObject({ ok: true });
    expect(await reader.raw.request('gateway.shutdown', {})).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    const bearer = await openConnected(gw.url, 'unused', { auth: undefined }, { headers: { authorization: `Bearer ${token}` } });
    raws.push(bearer.raw);
    expect(bearer.hello.scopes).toEqual(['read']);
    revokeScopedToken(gw.state.paths, record.id.slice(0, 4));
    const after = await openRaw(gw.url);
    raws.push(after);
    expect(await after.request('connect', connectParams(token))).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
  });

  it('a client may ask the main token for fewer scopes, never a scoped token for more', async () => {
    gw = await startTestGateway();
    const narrowed = await openConnected(gw.url, gw.token, { scopes: ['read'] });
    raws.push(narrowed.raw);
    expect(narrowed.hello.scopes).toEqual(['read']);
    const { token } = createScopedToken(gw.state.paths, ['read']);
    const raw = await openRaw(gw.url);
    raws.push(raw);
    const res = await raw.request('connect', connectParams(token, { scopes: ['approvals'] }));
    expect(res).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringContaining('carries read') } });
  });

  it('stores scoped tokens only as hashes, in a 0600 file', () => {
    const state = makeTempState();
    try {
      const { token } = createScopedToken(state.paths, ['read', 'write'], 'phone');
      const file = join(state.paths.credentials, 'gateway-tokens.json');
      expect(readFileSync(file, 'utf8')).not.toContain(token);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(listScopedTokens(state.paths)).toMatchObject([{ name: 'phone', scopes: ['read', 'write'] }]);
      expect(() => revokeScopedToken(state.paths, 'ffffffff')).toThrow(/claw gateway token list/);
    } finally {
      state.cleanup();
    }
  });
});

describe('state dir permissions', () => {
  it('claw.json is written 0600 in a 0700 folder, and an old 0644 config is tightened', () => {
    const state = makeTempState();
    try {
      const nested = { ...state.paths, root: join(state.dir, 'fresh'), config: join(state.dir, 'fresh', 'claw.json') };
      writeRawConfig(nested.config, {});
      expect(statSync(nested.config).mode & 0o777).toBe(0o600);
      expect(statSync(nested.root).mode & 0o777).toBe(0o700);
      mkdirSync(state.paths.credentials, { recursive: true });
      chmodSync(state.paths.credentials, 0o755);
      writeFileSync(state.paths.config, '{}\n', { mode: 0o644 });
      chmodSync(state.paths.config, 0o644);
      chmodSync(state.dir, 0o755);
      expect(secureStateDirSync(state.paths).sort()).toEqual([state.dir, state.paths.config, state.paths.credentials].sort());
      expect(statSync(state.paths.config).mode & 0o777).toBe(0o600);
      expect(statSync(state.dir).mode & 0o777).toBe(0o700);
      expect(secureStateDirSync(state.paths)).toEqual([]);
    } finally {
      state.cleanup();
    }
  });
});

describe('claw gateway token', () => {
  it('creates a scoped token shown once, lists it without the secret, refuses bad scopes, revokes it', async () => {
    const state = makeTempState();
    try {
      const created = await runCli(['gateway', 'token', 'create', '--scopes', 'read,write', '--name', 'phone', '--json'], state.env, 60_000);
      expect(created.stderr).toBe('');
      const { id, token, scopes } = JSON.parse(created.stdout) as { id: string; token: string; scopes: string[] };
      expect(scopes).toEqual(['read', 'write']);
      const listed = await runCli(['gateway', 'token', 'list'], state.env, 60_000);
      expect(listed.stdout).toContain(id);
      expect(listed.stdout).toContain('phone');
      expect(listed.stdout).not.toContain(token);
      const bad = await runCli(['gateway', 'token', 'create', '--scopes', 'root'], state.env, 60_000);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('unknown scope "root": use a comma-separated list of read, write, admin, approvals');
      const revoked = await runCli(['gateway', 'token', 'revoke', id], state.env, 60_000);
      expect(revoked).toMatchObject({ code: 0, stdout: expect.stringContaining(`revoked ${id}`) });
      expect(listScopedTokens(state.paths)).toEqual([]);
    } finally {
      state.cleanup();
    }
  }, 120_000);
});
