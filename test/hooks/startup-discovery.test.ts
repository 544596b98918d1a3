import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { readGatewayInfoSync } from '../../source/client/index.js';
import { coreGatewayModule } from '../../source/gateway/index.js';
import { readWebhookTokenSync } from '../../source/hooks/index.js';
import { InboundJournal } from '../../source/queue/index.js';
import { assertBuilt } from '../cli/cli-process.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { RecordingRunner, recorderHook, records, startHooksGateway, waitUntil, writeHook, type HooksGateway } from './hook-fixtures.js';

let gateway: HooksGateway | undefined;
let child: GatewayChild | undefined;
let state: TempState | undefined;
afterEach(async () => {
  await gateway?.stop();
  await child?.stop();
  state?.cleanup();
  gateway = undefined;
  child = undefined;
  state = undefined;
});

const denyAll = 'export default () => ({ block: true, reason: "the gate is closed" });\n';

describe('hook folders read after the gateway listens', () => {
  it('a message accepted before they are read still waits for its message:received hook, which blocks it', async () => {
    const runner = new RecordingRunner();
    gateway = await startHooksGateway({
      core: { runner },
      setup: (state) => {
        writeHook(join(state.dir, 'hooks'), 'gate', 'events: [message:received]', denyAll);
      },
      config: { hooks: { entries: { gate: { enabled: true } } } },
    });
    const gw = gateway;
    // The gateway is ready and its hooks are not yet known: this is the window the lifecycle must hold.
    expect(gw.core.hooks.status().hooks).toEqual([]);
    const early = gw.core.inbound.accept({
      channel: 'tui',
      peer: { kind: 'direct', id: 'op' },
      sessionKey: 'agent:main:main',
      messageId: 'early-1',
      text: 'hi',
    });
    const token = readWebhookTokenSync(gw.state.paths)!;
    const posted = fetch(`${gw.base}/hooks/agent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ message: 'sent right after ready', sessionKey: 'hook:early' }),
    });
    expect((await early).status).toBe('dropped');
    const webhook = await posted;
    expect(webhook.status).toBe(403);
    expect(((await webhook.json()) as { error: string }).error).toContain('the gate is closed');
    expect(gw.core.hooks.status().hooks.map((hook) => [hook.name, hook.runs])).toEqual([['gate', 2]]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runner.turns).toEqual([]);
  });

  it("a message recovered from the journal at start runs its turn with the hooks' turn:start, not without", async () => {
    let file = '';
    const runner = new RecordingRunner();
    gateway = await startHooksGateway({
      core: { runner },
      setup: async (state) => {
        file = join(state.dir, 'events.jsonl');
        writeHook(join(state.dir, 'hooks'), 'recorder', 'events: [turn:start, turn:end, gateway:startup]', recorderHook);
        // What a gateway killed after acknowledging a message leaves: an accepted record without an outcome.
        const { journal } = await InboundJournal.open(join(state.dir, 'queue', 'inbound.jsonl'));
        await journal.accept({
          dedupeKey: 'tui\u0000before-crash',
          runId: 'run-before-crash',
          messageId: 'before-crash',
          sessionKey: 'agent:main:main',
          agentId: 'main',
          channel: 'tui',
          text: 'answer me after the restart',
          mode: 'followup',
        });
        await journal.close();
      },
      config: (state) => ({ hooks: { entries: { recorder: { enabled: true, env: { RECORD_FILE: join(state.dir, 'events.jsonl') } } } } }),
    });
    await waitUntil(() => records(file).some((r) => r.event === 'turn:end'), 'the recovered turn');
    expect(runner.turns.map((turn) => turn.texts)).toEqual([['answer me after the restart']]);
    const seen = records(file);
    expect(seen.filter((r) => r.event.startsWith('turn:')).map((r) => [r.event, r.sessionKey])).toEqual([
      ['turn:start', 'agent:main:main'],
      ['turn:end', 'agent:main:main'],
    ]);
    await waitUntil(() => records(file).some((r) => r.event === 'gateway:startup'), 'gateway:startup');
  });

  it('hooks.list asked before the folders are read answers with every hook, not none', async () => {
    gateway = await startHooksGateway({
      setup: (state) => {
        writeHook(join(state.dir, 'hooks'), 'one', 'events: [turn:end]', 'export default () => undefined;\n');
        writeHook(join(state.dir, 'hooks'), 'broken', 'events: [no-such-event]', 'export default () => undefined;\n');
      },
    });
    // The method as the gateway mounts it, called in the window between ready and the folders read.
    const list = coreGatewayModule(gateway.core).handlers['hooks.list']!;
    expect(gateway.core.hooks.status().hooks).toEqual([]);
    const answer = await list({}, { connId: 'c1', clientId: 'test', scopes: ['admin'], address: '127.0.0.1' });
    expect(answer.hooks.map((hook) => [hook.name, hook.enabled])).toEqual([['one', false]]);
    expect(answer.invalid.map((bad) => bad.error)).toEqual([expect.stringContaining('unknown event "no-such-event"')]);
    // And over the wire.
    const client = await gateway.connect();
    expect((await client.request('hooks.list', {})).hooks.map((hook) => hook.name)).toEqual(['one']);
  });

  it('the shipped daemon runs gateway:startup hooks once it listens, with its port; yaml is in none of its chunks but its own', async () => {
    assertBuilt();
    const meta = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'dist', 'meta.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const withYaml = Object.entries(meta.outputs).filter(([, output]) => Object.keys(output.inputs).some((input) => input.includes('node_modules/yaml/')));
    // Its own: gateway-run.cjs requires (and caches) vendor-yaml.cjs on first use.
    expect(withYaml.map(([file]) => file)).toEqual(['dist/chunks/vendor-yaml.cjs']);
    expect(existsSync(join(import.meta.dirname, '..', '..', 'dist', 'chunks', 'yaml.cjs'))).toBe(true);

    state = makeTempState('claw-hooks-startup-');
    // A command hook runs in the exec sandbox: its data folder is where it may write.
    const out = join(state.dir, 'hook-data', 'startup-note', 'startup.json');
    writeHook(join(state.dir, 'hooks'), 'startup-note', 'events: [gateway:startup]\ncommand: cat > "$CLAW_HOOK_DATA/startup.json"');
    writeRawConfig(state.paths.config, { hooks: { entries: { 'startup-note': { enabled: true } } } });
    child = await startGatewayChild(state);
    await waitUntil(() => existsSync(out) && readFileSync(out, 'utf8').endsWith('}'), 'the gateway:startup hook');
    const envelope = JSON.parse(readFileSync(out, 'utf8')) as { event: string; payload: { port?: number } };
    expect(envelope).toMatchObject({ event: 'gateway:startup', payload: { port: readGatewayInfoSync(state.paths)!.port } });
    const client = await child.connect();
    const listed = (await client.request('hooks.list', {})).hooks;
    expect(listed.find((hook) => hook.name === 'startup-note')).toMatchObject({ runs: 1, failures: 0 });
  });

  it('a hook enabled in claw.json while the gateway runs gates the next message, and disabling it lets messages through', async () => {
    const runner = new RecordingRunner();
    gateway = await startHooksGateway({
      core: { runner },
      setup: (state) => {
        writeHook(join(state.dir, 'hooks'), 'gate', 'events: [message:received]', denyAll);
      },
    });
    const gw = gateway;
    const send = (id: string) =>
      gw.core.inbound.accept({ channel: 'tui', peer: { kind: 'direct', id: 'op' }, sessionKey: 'agent:main:main', messageId: id, text: id });
    expect((await send('before')).status).not.toBe('dropped');
    writeRawConfig(gw.state.paths.config, { hooks: { entries: { gate: { enabled: true } } } });
    await gw.core.config.reload();
    expect((await send('enabled')).status).toBe('dropped');
    writeRawConfig(gw.state.paths.config, { hooks: { entries: { gate: { enabled: false } } } });
    await gw.core.config.reload();
    expect((await send('disabled')).status).not.toBe('dropped');
    await waitUntil(() => runner.turns.length === 2, 'two turns');
    expect(runner.turns.flatMap((turn) => turn.texts)).toEqual(['before', 'disabled']);
  });
});
