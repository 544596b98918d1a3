import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { grantPlugin, installPlugin, pluginPaths, readManifest } from '../../source/plugins/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { mainSessionContext } from '../support/tool-context.js';
import { installAndGrant, writePlugin } from './plugin-fixtures.js';

const SECRET = 'probe-secret-4c1d9e77';

let gateway: TestGateway | undefined;
let server: Server | undefined;

afterEach(async () => {
  await gateway?.stop();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  gateway = server = undefined;
});

const PROBE_SETUP = `
  const fs = await import('node:fs');
  const net = await import('node:net');
  const tool = (name, effect, run) => ctx.tools.register({ name, description: name, effect, inputSchema: { type: 'object', properties: { path: { type: 'string' }, port: { type: 'number' }, url: { type: 'string' } } }, run });
  tool('read_file', 'read', ({ path }) => { try { return 'READ:' + fs.readFileSync(path, 'utf8'); } catch (e) { return 'DENIED:' + (e.code ?? e.message); } });
  tool('connect', 'net', ({ port }) => new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => { socket.destroy(); resolve('CONNECTED'); });
    socket.on('error', (e) => resolve('FAILED:' + e.code));
  }));
  tool('fetch_url', 'net', async ({ url }) => { try { const r = await fetch(url); return 'STATUS:' + r.status + ':' + (await r.text()); } catch (e) { return 'REFUSED:' + e.message; } });
  tool('spawn', 'exec', async () => { try { (await import('node:child_process')).execSync('id'); return 'SPAWNED'; } catch (e) { return 'DENIED:' + (e.code ?? e.message); } });
  tool('secret', 'read', () => 'the key is ' + ctx.secrets.get('PROBE_KEY'));
  tool('env', 'read', () => Object.keys(process.env).sort().join(','));
  tool('crash', 'read', () => { setTimeout(() => { throw new Error('boom'); }); return new Promise(() => {}); });
  tool('hang', 'read', () => new Promise(() => {}));
  tool('hog', 'read', () => { const kept = []; for (;;) kept.push(new Array(1e6).fill(kept.length)); });
  tool('flood', 'read', (_args, { progress }) => { for (let i = 0; i < 20000; i += 1) progress('x'); return new Promise(() => {}); });
  tool('stream_url', 'net', async ({ url }, { progress }) => {
    const reader = (await fetch(url)).body.getReader();
    const decoder = new TextDecoder();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return text;
      text += decoder.decode(value);
      progress('got ' + text.length);
    }
  });
`;

async function startProbe(declaredPort: number, config: Record<string, unknown> = {}): Promise<TestGateway> {
  gateway = await startTestGateway({
    config: { tools: { web: { allowPrivate: ['127.0.0.1'] } }, plugins: { callTimeoutMs: 2000 }, ...config },
    core: { env: { ...process.env, PROBE_KEY: SECRET, NOT_GRANTED_TOKEN: 'should-not-pass' } },
  });
  const dir = writePlugin(
    join(gateway.state.dir, 'src', 'probe-src'),
    {
      id: 'probe',
      contributes: { tools: ['read_file', 'connect', 'fetch_url', 'spawn', 'secret', 'env', 'crash', 'hang', 'stream_url', 'flood', 'hog'] },
      permissions: { net: [`127.0.0.1:${declaredPort}`], secrets: ['PROBE_KEY'] },
    },
    PROBE_SETUP,
  );
  installAndGrant(pluginPaths(gateway.state.paths), dir);
  await gateway.core.plugins.reload();
  expect(gateway.core.plugins.list()[0]).toMatchObject({ id: 'probe', state: 'running' });
  return gateway;
}

async function call(gateway: TestGateway, tool: string, args: Record<string, unknown> = {}): Promise<string> {
  const context = mainSessionContext(gateway.core.tools, gateway.state.paths.workspace('main'));
  const result = await gateway.core.tools.registry.invoke(`probe__${tool}`, args, context);
  return result.content;
}

async function httpServer(): Promise<number> {
  server = createServer((_req, res) => res.end('hello from the declared host'));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('a plugin process is confined', () => {
  it('cannot read claw secrets, the gateway token or anything outside its grants, spawn, or reach the gateway; fetch reaches only declared hosts', async () => {
    const declared = await httpServer();
    const gateway = await startProbe(declared);
    const paths = gateway.state.paths;
    const gatewayPort = Number(new URL(gateway.url).port);
    mkdirSync(paths.credentials, { recursive: true });
    writeFileSync(join(paths.credentials, 'openai.json'), JSON.stringify({ apiKey: 'sk-should-never-leak' }));

    for (const path of [
      join(paths.credentials, 'openai.json'),
      paths.gatewayToken,
      paths.config,
      '/etc/hostname',
      join(paths.root, 'plugins', 'plugins.lock'),
    ]) {
      const result = await call(gateway, 'read_file', { path });
      expect(result, path).toMatch(/^DENIED:/);
      expect(result).not.toContain('sk-should-never-leak');
    }
    expect(await call(gateway, 'spawn')).toMatch(/^DENIED:/);
    // No network of its own: the gateway's port on loopback is another namespace's.
    expect(await call(gateway, 'connect', { port: gatewayPort })).toMatch(/^FAILED:/);
    expect(await call(gateway, 'connect', { port: declared })).toMatch(/^FAILED:/);
    // fetch goes through claw: the declared host answers, any other host (the gateway included) is refused.
    expect(await call(gateway, 'fetch_url', { url: `http://127.0.0.1:${declared}/` })).toBe('STATUS:200:hello from the declared host');
    const refused = await call(gateway, 'fetch_url', { url: `http://127.0.0.1:${gatewayPort}/healthz` });
    expect(refused).toContain('REFUSED:');
    expect(refused).toContain(`may reach only 127.0.0.1:${declared}`);
    // Only the env it was granted (none) and claw's minimum; secrets only through ctx.secrets, redacted on the way out.
    const env = await call(gateway, 'env');
    expect(env).not.toContain('NOT_GRANTED_TOKEN');
    expect(env).not.toContain('PROBE_KEY');
    expect(await call(gateway, 'secret')).toBe('the key is [redacted: PROBE_KEY]');
  }, 60_000);

  it('a response body streams into the plugin as it arrives, and a long one keeps its call alive past callTimeoutMs', async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('a');
      let sent = 0;
      const timer = setInterval(() => {
        res.write('b');
        if ((sent += 1) === 6) {
          clearInterval(timer);
          res.end();
        }
      }, 450);
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const gateway = await startProbe(port);
    const updates: Array<{ text: string; at: number }> = [];
    const context = mainSessionContext(gateway.core.tools, gateway.state.paths.workspace('main'), {
      onUpdate: (text) => updates.push({ text, at: Date.now() }),
    });
    const result = await gateway.core.tools.registry.invoke('probe__stream_url', { url: `http://127.0.0.1:${port}/` }, context);
    const done = Date.now();
    expect(result.content).toBe('abbbbbb');
    // The first bytes reached the plugin seconds before the end, and 2.7 s of streaming did not count as hung.
    expect(done - updates[0]!.at).toBeGreaterThan(1500);
    expect(gateway.core.plugins.list()[0]?.state).toBe('running');
  }, 60_000);

  it('a declared host still passes the address policy: private addresses need tools.web.allowPrivate', async () => {
    const declared = await httpServer();
    const gateway = await startProbe(declared, { tools: { web: { allowPrivate: [] } } });
    const result = await call(gateway, 'fetch_url', { url: `http://127.0.0.1:${declared}/` });
    expect(result).toContain('REFUSED:');
    expect(result).toContain('tools.web.allowPrivate');
  }, 60_000);
});

describe('plugin tools follow the trust model', () => {
  it('for a non-owner a tool with an effect beyond read asks the owner, with the plugin named; a read tool does not', async () => {
    const declared = await httpServer();
    const gateway = await startProbe(declared);
    const context = mainSessionContext(gateway.core.tools, gateway.state.paths.workspace('main'), { principal: 'contact:telegram:42' });
    expect((await gateway.core.tools.registry.invoke('probe__secret', {}, context)).content).toBe('the key is [redacted: PROBE_KEY]');
    const pending = gateway.core.tools.registry.invoke('probe__fetch_url', { url: `http://127.0.0.1:${declared}/` }, context);
    let approval = gateway.core.tools.inbox.list()[0];
    for (let i = 0; i < 100 && !approval; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      approval = gateway.core.tools.inbox.list()[0];
    }
    expect(approval).toMatchObject({ kind: 'plugin', command: expect.stringContaining('plugin probe: fetch_url') });
    gateway.core.tools.inbox.resolve(approval!.id, 'deny', 'test');
    expect((await pending).content).toContain('was not approved');
    // The owner's own turn runs it unasked.
    expect(await call(gateway, 'fetch_url', { url: `http://127.0.0.1:${declared}/` })).toBe('STATUS:200:hello from the declared host');
  }, 60_000);
});

describe('a misbehaving plugin is quarantined while claw carries on', () => {
  it('a crash: the call fails, the plugin is in state error with the reason, its tools are gone, and restart brings it back', async () => {
    const gateway = await startProbe(1);
    const client = await gateway.connect();
    const statuses: Array<{ plugins: Array<{ id: string; state: string }> }> = [];
    client.on('plugins.status', (payload) => statuses.push(payload));
    const result = await call(gateway, 'crash');
    expect(result).toMatch(/probe__crash failed: the plugin process exited/);
    const [info] = gateway.core.plugins.list();
    expect(info).toMatchObject({ id: 'probe', state: 'error' });
    expect(info?.error).toMatch(/exited/);
    expect(gateway.core.tools.registry.get('probe__secret')).toBeUndefined();
    // Clients hear it (the TUI flags it in its header and says so in the chat).
    for (let i = 0; i < 100 && statuses.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(statuses.at(-1)?.plugins[0]).toMatchObject({ id: 'probe', state: 'error' });
    // Other tools and turns are untouched; the owner restarts it.
    expect(gateway.core.tools.registry.get('memory_search')).toBeDefined();
    const restarted = await gateway.core.plugins.restart('probe');
    expect(restarted.state).toBe('running');
    expect(await call(gateway, 'secret')).toBe('the key is [redacted: PROBE_KEY]');
  }, 60_000);

  it('a plugin that eats memory dies at plugins.maxMemoryMb and is quarantined, not the machine', async () => {
    const gateway = await startProbe(1, { plugins: { callTimeoutMs: 30_000, maxMemoryMb: 64 } });
    const result = await call(gateway, 'hog');
    expect(result).toMatch(/probe__hog failed: the plugin process (exited|was killed)/);
    expect(gateway.core.plugins.list()[0]).toMatchObject({ state: 'error' });
  }, 60_000);

  it('a flood of messages quarantines it', async () => {
    const gateway = await startProbe(1);
    const result = await call(gateway, 'flood');
    expect(result).toMatch(/messages a second \(flood\)/);
    expect(gateway.core.plugins.list()[0]).toMatchObject({ state: 'error', error: expect.stringMatching(/flood/) });
  }, 60_000);

  it('a hang past plugins.callTimeoutMs quarantines it', async () => {
    const gateway = await startProbe(1);
    const result = await call(gateway, 'hang');
    expect(result).toMatch(/did not answer tool\.call within 2 s \(hung\)/);
    expect(gateway.core.plugins.list()[0]).toMatchObject({ state: 'error', error: expect.stringMatching(/hung/) });
  }, 60_000);
});

describe('what a plugin may register, and which package loads', () => {
  it('registering a name the manifest does not declare fails, and nothing of the plugin loads', async () => {
    gateway = await startTestGateway({ core: {} });
    const dir = writePlugin(
      join(gateway.state.dir, 'src', 'sneaky'),
      { id: 'sneaky', contributes: { tools: ['declared'] } },
      `ctx.tools.register({ name: 'declared', description: 'd', run: () => 'ok' });
       ctx.tools.register({ name: 'undeclared', description: 'u', run: () => 'ok' });`,
    );
    installAndGrant(pluginPaths(gateway.state.paths), dir);
    await gateway.core.plugins.reload();
    const [info] = gateway.core.plugins.list();
    expect(info?.state).toBe('error');
    expect(info?.error).toContain('tool "undeclared" is not declared in claw.plugin.json contributes.tools');
    expect(gateway.core.tools.registry.get('sneaky__declared')).toBeUndefined();
  }, 60_000);

  it('an unreadable grants.json keeps no client from attaching; the plugins list says what to fix', async () => {
    gateway = await startTestGateway({ core: {} });
    const dir = writePlugin(
      join(gateway.state.dir, 'src', 'fine'),
      { id: 'fine', contributes: { tools: ['t'] } },
      `ctx.tools.register({ name: 't', description: 't', run: () => 'ok' });`,
    );
    const paths = pluginPaths(gateway.state.paths);
    installAndGrant(paths, dir);
    writeFileSync(paths.grants, '{ not json');
    await gateway.core.plugins.reload();
    const client = await gateway.connect();
    expect(client.hello?.snapshot).toBeDefined();
    await expect(client.request('plugins.list', {})).rejects.toThrow(/grants\.json is unreadable .*fix or remove it/);
  }, 60_000);

  it('a package changed after install does not load (plugins.lock mismatch)', async () => {
    gateway = await startTestGateway({ core: {} });
    const dir = writePlugin(
      join(gateway.state.dir, 'src', 'tamper'),
      { id: 'tamper', contributes: { tools: ['t'] } },
      `ctx.tools.register({ name: 't', description: 't', run: () => 'ok' });`,
    );
    const paths = pluginPaths(gateway.state.paths);
    installAndGrant(paths, dir);
    writeFileSync(
      join(paths.dir('tamper'), 'index.mjs'),
      `export default { id: 'tamper', setup(ctx) { ctx.tools.register({ name: 't', description: 't', run: () => 'evil' }); } };\n`,
    );
    await gateway.core.plugins.reload();
    const [info] = gateway.core.plugins.list();
    expect(info).toMatchObject({ state: 'error', error: expect.stringContaining('plugins.lock mismatch') });
    expect(info?.pid).toBeUndefined();
    expect(gateway.core.tools.registry.get('tamper__t')).toBeUndefined();
  }, 60_000);

  it('an update that asks for more permissions is off until they are granted again', async () => {
    gateway = await startTestGateway({ core: {} });
    const paths = pluginPaths(gateway.state.paths);
    const src = join(gateway.state.dir, 'src', 'widen');
    const body = `ctx.tools.register({ name: 't', description: 't', run: () => 'v' });`;
    writePlugin(src, { id: 'widen', contributes: { tools: ['t'] } }, body);
    installAndGrant(paths, src);
    await gateway.core.plugins.reload();
    expect(gateway.core.plugins.list()[0]?.state).toBe('running');

    writePlugin(src, { id: 'widen', version: '1.1.0', contributes: { tools: ['t'] }, permissions: { net: ['api.example.com'] } }, body);
    const update = installPlugin(paths, src);
    expect(update.widened).toEqual(['net api.example.com']);
    await gateway.core.plugins.reload();
    expect(gateway.core.plugins.list()[0]).toMatchObject({ state: 'needs-approval', error: expect.stringContaining('net api.example.com') });
    expect(gateway.core.tools.registry.get('widen__t')).toBeUndefined();

    grantPlugin(paths, 'widen', readManifest(paths.dir('widen')).permissions, Date.now());
    await gateway.core.plugins.reload();
    expect(gateway.core.plugins.list()[0]).toMatchObject({ state: 'running', version: '1.1.0' });
  }, 60_000);
});
