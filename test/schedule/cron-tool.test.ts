import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { quiesce } from './schedule-harness.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  gateway = undefined;
  llm = undefined;
});

async function start(): Promise<{ gateway: TestGateway; llm: FakeLlmServer }> {
  llm = await startFakeOpenAI();
  gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
      // The cron tool is opt-in (the default coding profile leaves the automation group out).
      tools: { allow: ['cron'] },
    },
    core: {},
  });
  return { gateway, llm };
}

/** The text of the tool results the model was sent back, in order. */
function toolResults(llm: FakeLlmServer): string[] {
  return llm.requests.flatMap((request) => {
    const messages = (request.body.messages ?? []) as Array<{ role: string; content: unknown }>;
    const last = messages[messages.length - 1];
    return last?.role === 'tool' ? [String(last.content)] : [];
  });
}

async function turn(gateway: TestGateway, sessionKey: string, text: string): Promise<void> {
  const client = await gateway.connect();
  await client.request('chat.send', { sessionKey, text });
  await new Promise((resolve) => setTimeout(resolve, 50));
  await quiesce(gateway.core);
  client.close();
}

describe('the cron tool through the agent', () => {
  it('accepts the flattened parameters models send, and shows the fixed shape when it cannot', async () => {
    const { gateway, llm } = await start();
    llm.reply(
      {
        toolCalls: [
          {
            name: 'cron',
            arguments: { action: 'add', name: 'digest', schedule: '0 8 * * 1-5', tz: 'Europe/Berlin', message: 'Summarise my inbox', announce: 'main' },
          },
        ],
      },
      { toolCalls: [{ name: 'cron', arguments: { action: 'add', job: { name: 'water', schedule: { every: '2h' }, payload: { text: 'drink water' } } } }] },
      { toolCalls: [{ name: 'cron', arguments: { action: 'add', name: 'nonsense', when: 'sometimes' } }] },
      { text: 'Scheduled.' },
    );
    await turn(gateway, 'agent:main:main', 'schedule my digest and a water reminder');
    const jobs = gateway.core.schedule.overview().jobs;
    expect(jobs.map((job) => job.name).sort()).toEqual(['digest', 'water']);
    const digest = jobs.find((job) => job.name === 'digest')!;
    expect(digest).toMatchObject({
      schedule: { kind: 'cron', expr: '0 8 * * 1-5', tz: 'Europe/Berlin' },
      payload: { kind: 'agentTurn', message: 'Summarise my inbox' },
      sessionTarget: 'isolated',
      delivery: { mode: 'announce', to: 'main' },
      createdBy: 'agent:main:main',
    });
    expect(jobs.find((job) => job.name === 'water')).toMatchObject({
      schedule: { kind: 'every', every: '2h' },
      payload: { kind: 'systemEvent', text: 'drink water' },
      sessionTarget: 'main',
    });
    const results = toolResults(llm);
    expect(results).toHaveLength(3);
    expect(results[2]).toMatch(/Invalid cron arguments: .*job\.schedule.*Use this shape: \{"action":"add","job":\{"name":"digest"/);
  });

  it('refuses to let a cron-started turn schedule more jobs unless the job allows it', async () => {
    const { gateway, llm } = await start();
    const job = await gateway.core.schedule.add({ name: 'spawner', schedule: { kind: 'every', every: '1h' }, payload: { kind: 'agentTurn', message: 'go' } });
    llm.reply({ toolCalls: [{ name: 'cron', arguments: { action: 'add', name: 'child', every: '1m', message: 'again' } }] }, { text: 'done' });
    gateway.core.schedule.run(job.id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await quiesce(gateway.core);
    expect(toolResults(llm)[0]).toMatch(/started by cron job "spawner".*may not create or change cron jobs.*allowScheduling: true/);
    expect(gateway.core.schedule.overview().jobs.map((j) => j.name)).toEqual(['spawner']);
    expect(gateway.core.schedule.runs(job.id)[0]).toMatchObject({ status: 'ok' });

    await gateway.core.schedule.update(job.id, { allowScheduling: true });
    llm.reply({ toolCalls: [{ name: 'cron', arguments: { action: 'add', name: 'child', every: '1m', message: 'again' } }] }, { text: 'done' });
    gateway.core.schedule.run(job.id);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await quiesce(gateway.core);
    expect(
      gateway.core.schedule
        .overview()
        .jobs.map((j) => j.name)
        .sort(),
    ).toEqual(['child', 'spawner']);
  });
});
