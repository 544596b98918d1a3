import type { Logger } from '../../source/config/index.js';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureGatewayTokenSync, loadConfig, writeRawConfig } from '../../source/config/index.js';
import type { GatewayServer } from '../../source/gateway/index.js';
import { buildTestRoot, type TestCoreOptions } from '../support/gateway-harness.js';
import type { Core } from '../../source/core/index.js';
import type { TurnContext, TurnOutcome, TurnRunner } from '../../source/queue/index.js';
import { GatewayClient } from '../../source/client/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

/** A logger that keeps every line, so a test can prove a secret never reached it. */
export class RecordingLogger implements Logger {
  readonly lines: string[] = [];
  readonly secrets: string[] = [];
  debug(message: string, fields?: Record<string, unknown>): void {
    this.#add('debug', message, fields);
  }
  info(message: string, fields?: Record<string, unknown>): void {
    this.#add('info', message, fields);
  }
  warn(message: string, fields?: Record<string, unknown>): void {
    this.#add('warn', message, fields);
  }
  error(message: string, fields?: Record<string, unknown>): void {
    this.#add('error', message, fields);
  }
  addSecret(secret: string): void {
    this.secrets.push(secret);
  }
  #add(level: string, message: string, fields?: Record<string, unknown>): void {
    this.lines.push(`${level} ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`);
  }
}

/** Answers every turn at once with "done: <text>" and remembers what each turn was asked. */
export class RecordingRunner implements TurnRunner {
  readonly turns: Array<{ sessionKey: string; texts: string[]; model?: string; timeoutSeconds?: number }> = [];

  async run(turn: TurnContext): Promise<TurnOutcome> {
    const texts = turn.messages.map((m) => m.text);
    const { model, timeoutSeconds } = turn.messages[0] ?? {};
    this.turns.push({
      sessionKey: turn.sessionKey,
      texts,
      ...(model !== undefined ? { model } : {}),
      ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
    });
    const text = `done: ${texts.join(' | ')}`;
    turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text }], stopReason: 'stop' });
    turn.emit('chat', { runId: turn.runId, sessionKey: turn.sessionKey, state: 'final', text });
    return { status: 'replied', text };
  }
}

export interface HooksGateway {
  state: TempState;
  server: GatewayServer;
  core: Core;
  log: RecordingLogger;
  base: string;
  gatewayToken: string;
  userHooks: string;
  connect(): Promise<GatewayClient>;
  stop(): Promise<void>;
}

/**
 * A real gateway on loopback with the daemon's services, a recording logger,
 * an empty bundled-hooks folder unless one is given, and `<state>/hooks` as
 * the user's hooks.
 */
export async function startHooksGateway(
  options: {
    config?: Record<string, unknown> | ((state: TempState) => Record<string, unknown>);
    core?: TestCoreOptions;
    bundledDir?: string;
    setup?: (state: TempState) => void | Promise<void>;
    /** A state dir of an earlier gateway (a restart); kept when this one stops. */
    state?: TempState;
  } = {},
): Promise<HooksGateway> {
  const state = options.state ?? makeTempState('claw-hooks-');
  const userHooks = join(state.dir, 'hooks');
  mkdirSync(userHooks, { recursive: true });
  const emptyBundled = join(state.dir, 'no-bundled-hooks');
  mkdirSync(emptyBundled, { recursive: true });
  await options.setup?.(state);
  if (options.config) writeRawConfig(state.paths.config, typeof options.config === 'function' ? options.config(state) : options.config);
  const config = loadConfig(state.paths.config);
  const gatewayToken = ensureGatewayTokenSync(state.paths, {});
  const log = new RecordingLogger();
  const { server, core } = await buildTestRoot(config, state.paths, gatewayToken, {
    log,
    core: { env: { OLLAMA_HOST: '127.0.0.1:9' }, hooks: { bundledDir: options.bundledDir ?? emptyBundled, parentEnv: process.env }, ...options.core },
  });
  const port = await server.start();
  const clients: GatewayClient[] = [];
  return {
    state,
    server,
    core: core!,
    log,
    base: `http://127.0.0.1:${port}`,
    gatewayToken,
    userHooks,
    async connect() {
      const client = new GatewayClient({ url: `ws://127.0.0.1:${port}`, token: gatewayToken, clientName: 'test' });
      clients.push(client);
      await client.connect();
      return client;
    },
    async stop() {
      for (const client of clients) client.close();
      await server.stop('test finished');
      if (!options.state) state.cleanup();
    },
  };
}

/** Writes a hook folder: HOOK.md from the given front matter lines, plus a handler.mjs when `handler` is given. */
export function writeHook(root: string, name: string, frontmatter: string, handler?: string): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'HOOK.md'), `---\nname: ${name}\ndescription: test hook ${name}\n${frontmatter}\n---\n\n# ${name}\n`);
  if (handler !== undefined) writeFileSync(join(dir, 'handler.mjs'), handler);
  return dir;
}

export function writeScript(path: string, text: string): void {
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

export async function waitUntil(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A module hook that appends each event it gets, with its payload, to the file in its RECORD_FILE env. */
export const recorderHook = `import { appendFileSync } from 'node:fs';
export default (event, ctx) => { appendFileSync(ctx.env.RECORD_FILE, JSON.stringify({ event: event.event, ...event.payload }) + '\\n'); };
`;

/** What recorderHook wrote so far, oldest first. */
export function records(file: string): Array<{ event: string; channel?: string; sessionKey?: string; text?: string; port?: number }> {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { event: string });
}
