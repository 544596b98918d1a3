import { afterEach, describe, expect, it } from 'vitest';
import { commandDataOf, type CommandDataName } from '../../source/protocol/index.js';
import { echoRunner } from '../../source/queue/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';

let gateway: TestGateway | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

describe("commands.run's data is declared per command", () => {
  it('what the built-in commands answer is the shape protocol/ declares, read back typed', async () => {
    gateway = await startTestGateway({ core: { runner: echoRunner } });
    const client = await gateway.connect();
    const run = async <K extends CommandDataName>(name: K, text: string) =>
      commandDataOf(name, (await client.request('commands.run', { sessionKey: 'agent:main:main', text })).data);

    expect(await run('model', '/model')).toEqual({ model: undefined, models: expect.any(Array) });
    // Unset, /think names the level turns use (the agent's default), not "default".
    expect(await run('think', '/think')).toEqual({ thinking: undefined, effective: 'off' });
    expect(await run('think', '/think low')).toEqual({ thinking: 'low' });
    expect(await run('think', '/think')).toEqual({ thinking: 'low', effective: 'low' });
    expect(await run('abort', '/abort')).toEqual({ aborted: false });
    expect((await run('heartbeat', '/heartbeat'))?.agentId).toBe('main');
    // Another command's data is not mistaken for this one's.
    expect(await run('abort', '/think')).toBeUndefined();
  });
});
