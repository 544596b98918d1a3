import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, writeRawConfig } from '../../source/config/index.js';
import { ensureGatewayTokenSync } from '../../source/config/index.js';
import { createToolsRuntime, probeSandbox, writeExecApprovalsFile, type ToolContext, type ToolsRuntime } from '../../source/tools/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { mainSessionContext } from '../support/tool-context.js';

const probe = probeSandbox();
const reason = probe.kind === 'none' ? probe.reason : '';
if (reason) console.warn(`exec sandbox tests skipped: ${reason}`);

let state: TempState;
let runtime: ToolsRuntime;
let context: ToolContext;
let fakeHome: string;
let server: Server;
let port: number;
const canary = `canary-${process.pid}`;

beforeAll(async () => {
  server = createServer((_req, res) => res.end('reachable'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function setup(env: NodeJS.ProcessEnv = process.env, fsRoots: string[] = []) {
  state = makeTempState();
  fakeHome = mkdtempSync(join(tmpdir(), 'claw-home-'));
  mkdirSync(join(fakeHome, '.ssh'));
  writeFileSync(join(fakeHome, '.ssh', 'id_ed25519'), 'PRIVATE KEY MATERIAL');
  writeFileSync(join(fakeHome, '.netrc'), 'machine x password hunter2hunter2');
  writeRawConfig(state.paths.config, {
    tools: {
      fsRoots: fsRoots.map((root) => root.replace('$STATE', state.dir)),
      exec: { sandbox: { hiddenPaths: [join(fakeHome, '.ssh'), join(fakeHome, '.netrc')] } },
    },
  });
  // security full: the policy lets everything run, so only the sandbox stands between the command and the secrets.
  writeExecApprovalsFile(state.paths.execApprovals, { version: 1, security: 'full', ask: 'on-miss', safeList: true, agents: {} });
  ensureGatewayTokenSync(state.paths, {});
  runtime = createToolsRuntime({ config: loadConfig(state.paths.config), paths: state.paths, env });
  const workspaceDir = state.paths.workspace('main');
  mkdirSync(workspaceDir, { recursive: true });
  context = mainSessionContext(runtime, workspaceDir);
  return workspaceDir;
}

afterEach(async () => {
  await runtime?.close();
  state?.cleanup();
  if (fakeHome) rmSync(fakeHome, { recursive: true, force: true });
});

const exec = (command: string, extra: Record<string, unknown> = {}) => runtime.registry.invoke('exec', { command, ...extra }, context);

describe.skipIf(Boolean(reason))('exec inside the bubblewrap sandbox', () => {
  it('the state dir is invisible: the gateway token and the approvals policy cannot be read or written', async () => {
    setup();
    const before = readFileSync(state.paths.execApprovals, 'utf8');
    expect((await exec(`cat ${state.paths.gatewayToken}`)).content).toContain('No such file');
    expect((await exec(`ls -a ${state.dir}`)).content).not.toContain('credentials');
    expect((await exec(`/bin/sh -c 'echo {\\"security\\":\\"full\\"} > ${state.paths.execApprovals}; echo x > ${state.dir}/${canary}'`)).isError).toBe(false);
    expect(readFileSync(state.paths.execApprovals, 'utf8')).toBe(before);
    expect(existsSync(join(state.dir, canary))).toBe(false);
  });

  it('the state dir stays hidden even when tools.fsRoots lists it', async () => {
    setup(process.env, ['$STATE']);
    expect((await exec(`cat ${state.paths.gatewayToken}`)).content).toContain('No such file');
  });

  it('unix sockets under /run (docker, D-Bus, agents) cannot be reached', async () => {
    setup();
    const { createServer: createSocketServer } = await import('node:http');
    const path = `/run/claw-sandbox-test-${process.pid}.sock`;
    const socketServer = createSocketServer((_req, res) => res.end('socket reached'));
    await new Promise<void>((resolve) => socketServer.listen(path, resolve));
    try {
      const result = await exec(`curl -sS --max-time 5 --unix-socket ${path} http://local/`);
      expect(result.content).not.toContain('socket reached');
      expect(result.isError).toBe(true);
    } finally {
      await new Promise<void>((resolve) => socketServer.close(() => resolve()));
    }
  });

  it('a channel token file is hidden wherever it lives, from commands and from the read tool', async () => {
    state = makeTempState();
    fakeHome = mkdtempSync(join(tmpdir(), 'claw-home-'));
    const tokenFile = join(fakeHome, 'bots', 'telegram.token');
    mkdirSync(join(fakeHome, 'bots'));
    writeFileSync(tokenFile, '123456:TOKEN_that_must_never_be_seen_abcdef');
    writeRawConfig(state.paths.config, { channels: { telegram: { accounts: { home: { tokenFile } } } }, tools: { fsRoots: [fakeHome] } });
    writeExecApprovalsFile(state.paths.execApprovals, { version: 1, security: 'full', ask: 'on-miss', safeList: true, agents: {} });
    ensureGatewayTokenSync(state.paths, {});
    runtime = createToolsRuntime({ config: loadConfig(state.paths.config), paths: state.paths, env: process.env });
    const workspaceDir = state.paths.workspace('main');
    mkdirSync(workspaceDir, { recursive: true });
    context = mainSessionContext(runtime, workspaceDir);
    expect((await exec(`cat ${tokenFile}`)).content).not.toContain('TOKEN_that_must');
    expect((await exec(`ls ${join(fakeHome, 'bots')}`)).content).toContain('telegram.token');
    const read = await runtime.registry.invoke('read', { path: tokenFile }, context);
    expect(read.content).not.toContain('TOKEN_that_must');
  });

  it('secret folders and files are hidden', async () => {
    setup();
    expect((await exec(`ls -a ${join(fakeHome, '.ssh')}`)).content).not.toContain('id_ed25519');
    expect((await exec(`cat ${join(fakeHome, '.ssh', 'id_ed25519')}`)).content).not.toContain('PRIVATE KEY');
    expect((await exec(`cat ${join(fakeHome, '.netrc')}`)).content).not.toContain('hunter2');
  });

  it('home is empty inside but for the workspace, fsRoots, tools.exec.sandbox.readable and the toolchains on PATH', async () => {
    // Outside /tmp, which is a private tmpfs inside anyway: this home is only hidden if home itself is.
    const home = mkdtempSync(join('/var/tmp', 'claw-home-'));
    try {
      mkdirSync(join(home, '.codex'));
      writeFileSync(join(home, '.codex', 'auth.json'), '{"token":"codex-secret-abcdef"}');
      writeFileSync(join(home, '.bash_history'), 'export TOKEN=history-secret-abcdef');
      writeFileSync(join(home, '.gitconfig'), '[user]\n\tname = Visible Person\n');
      writeFileSync(join(home, 'notes.txt'), 'shared notes');
      mkdirSync(join(home, 'shared'));
      writeFileSync(join(home, 'shared', 'data.txt'), 'root data');
      mkdirSync(join(home, '.toolchain', 'v1', 'bin'), { recursive: true });
      mkdirSync(join(home, '.toolchain', 'v1', 'lib'));
      writeFileSync(join(home, '.toolchain', 'v1', 'lib', 'message'), 'from the toolchain');
      writeFileSync(join(home, '.toolchain', 'v1', 'bin', 'mytool'), '#!/bin/sh\ncat "$(dirname "$0")/../lib/message"\n', { mode: 0o755 });
      state = makeTempState();
      writeRawConfig(state.paths.config, { tools: { fsRoots: [join(home, 'shared')], exec: { sandbox: { readable: ['.gitconfig', 'notes.txt'] } } } });
      writeExecApprovalsFile(state.paths.execApprovals, { version: 1, security: 'full', ask: 'on-miss', safeList: true, agents: {} });
      ensureGatewayTokenSync(state.paths, {});
      const env = { ...process.env, HOME: home, PATH: `${join(home, '.toolchain', 'v1', 'bin')}:${process.env.PATH}` };
      runtime = createToolsRuntime({ config: loadConfig(state.paths.config), paths: state.paths, env });
      const workspaceDir = state.paths.workspace('main');
      mkdirSync(workspaceDir, { recursive: true });
      context = mainSessionContext(runtime, workspaceDir);
      expect((await exec(`cat ${join(home, '.codex', 'auth.json')}`)).content).not.toContain('codex-secret');
      expect((await exec(`cat ${join(home, '.bash_history')}`)).content).not.toContain('history-secret');
      expect((await exec(`ls -a ${home}`)).content).not.toContain('.codex');
      const redirected = await exec(`cat < ${join(home, '.codex', 'auth.json')}`);
      expect(redirected.content).not.toContain('codex-secret');
      expect(redirected.content).toContain('hidden from commands');
      expect((await exec(`cat ${join(home, '.gitconfig')}`)).content).toContain('Visible Person');
      expect((await exec(`cat ${join(home, 'notes.txt')}`)).content).toContain('shared notes');
      expect((await exec(`cat ${join(home, 'shared', 'data.txt')}`)).content).toContain('root data');
      expect((await exec('mytool')).content).toContain('from the toolchain');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('the network is unreachable unless the call asks for it (and it is approved)', async () => {
    setup();
    const url = `http://127.0.0.1:${port}/`;
    const offline = await exec(`curl -sS --max-time 5 ${url}`);
    expect(offline.isError).toBe(true);
    expect(offline.content).not.toContain('reachable');
    // The model is told why, and how to get the network (curl's exit 7 says nothing by itself).
    expect(offline.content).toContain('[This ran in the sandbox without network. If it needs the network, call exec again with network: true');
    const resolving = await exec(
      `${process.execPath} -e "require('dns').lookup('example.com', (e) => { console.error(e ? e.message : 'ok'); process.exit(e ? 1 : 0) })"`,
    );
    expect(resolving.content).toContain('without network');
    // A failure that is not about the network gets no such note.
    expect((await exec(`${process.execPath} -e "process.exit(2)"`)).content).not.toContain('without network');
    const node = await exec(
      `${process.execPath} -e "fetch('${url}').then(r => r.text()).then(console.log, e => { console.log('failed', e.cause?.code); process.exit(3) })"`,
    );
    expect(node.content).toContain('failed');
    const online = await exec(`curl -sS --max-time 5 ${url}`, { network: true });
    expect(online.content).toContain('reachable');
  });

  it('writes outside the workspace fail or vanish; inside they land', async () => {
    const workspace = setup();
    const outside = mkdtempSync(join(tmpdir(), 'claw-outside-'));
    try {
      await exec(`touch ${join(outside, canary)}`);
      await exec(`touch /etc/${canary}`);
      await exec(`touch ${join(fakeHome, canary)}`);
      await exec(`echo planted > ${join(outside, `${canary}-redirect`)}`);
      expect(existsSync(join(outside, canary))).toBe(false);
      expect(existsSync(`/etc/${canary}`)).toBe(false);
      expect(existsSync(join(fakeHome, canary))).toBe(false);
      expect(existsSync(join(outside, `${canary}-redirect`))).toBe(false);
      expect((await exec(`echo planted > ${join(outside, `${canary}-redirect`)}`)).content).toContain('outside the workspace');
      expect((await exec('touch inside.txt')).isError).toBe(false);
      expect(existsSync(join(workspace, 'inside.txt'))).toBe(true);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('children get an allowlisted environment: no provider keys, no gateway token, no CLAW_*', async () => {
    setup({ ...process.env, OPENAI_API_KEY: 'sk-sandbox-test-secret-0123456789', CLAW_GATEWAY_TOKEN: 'gateway-token-in-env-0123456789', CLAW_STATE_DIR: '/x' });
    const environ = await exec('cat /proc/self/environ');
    expect(environ.content).not.toContain('sk-sandbox-test-secret');
    expect(environ.content).not.toContain('gateway-token-in-env');
    expect(environ.content).not.toContain('CLAW_');
    expect(environ.content).toContain('PATH=');
    const explicit = await exec('cat /proc/self/environ', { env: { MY_SETTING: 'visible' } });
    expect(explicit.content).toContain('MY_SETTING=visible');
  });

  it('another process of the host cannot be seen or signalled', async () => {
    setup();
    const result = await exec(`cat /proc/${process.pid}/environ`);
    expect(result.isError).toBe(true);
    expect((await exec(`kill -0 ${process.pid}`)).isError).toBe(true);
  });
});
