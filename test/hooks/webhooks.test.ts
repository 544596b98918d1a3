import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signWebhook, readWebhookTokenSync, webhookTokenPath } from '../../source/hooks/index.js';
import { makeTempState } from '../support/temp-state.js';
import { RecordingRunner, startHooksGateway, waitUntil, type HooksGateway } from './hook-fixtures.js';

let gateway: HooksGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

const SECRET = `whsec_${Buffer.from('a signing secret of 32 bytes....').toString('base64')}`;

/** A push event as GitHub sends it (fields trimmed to what a template would use, shapes kept). */
const githubPush = {
  ref: 'refs/heads/main',
  before: '6113728f27ae82c7b1a177c8d03f9e96e0adf246',
  after: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
  repository: { id: 1296269, name: 'Hello-World', full_name: 'octocat/Hello-World', html_url: 'https://github.com/octocat/Hello-World' },
  pusher: { name: 'octocat', email: 'octocat@github.com' },
  sender: { login: 'octocat', id: 1 },
  head_commit: {
    id: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c',
    message: 'Fix the login redirect loop',
    url: 'https://github.com/octocat/Hello-World/commit/0d1a26e6',
  },
  commits: [{ id: '0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c', message: 'Fix the login redirect loop', added: [], removed: [], modified: ['src/login.ts'] }],
};

const config = {
  hooks: {
    mappings: {
      github: {
        path: 'github',
        auth: 'signature',
        secret: SECRET,
        template: '{{pusher.name}} pushed to {{repository.full_name}} ({{ref}}): {{head_commit.message}} — files: {{commits.0.modified}}',
      },
      grafana: { path: 'grafana', template: 'Alert {{title}}: {{state}}', rateLimitPerMinute: 2 },
    },
  },
};

async function start(
  runner = new RecordingRunner(),
  webhooks: Record<string, unknown> = {},
): Promise<{ gw: HooksGateway; runner: RecordingRunner; token: string }> {
  gateway = await startHooksGateway({ config: { hooks: { ...config.hooks, webhooks } }, core: { runner } });
  return { gw: gateway, runner, token: readWebhookTokenSync(gateway.state.paths)! };
}

function post(gw: HooksGateway, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${gw.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

function signed(body: string, id: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signWebhook(SECRET, id, timestamp, body) };
}

describe('webhooks', () => {
  it('answers 202 with a runId once the message is in the journal on disk, runs it in a hook session, and reports its outcome', async () => {
    const { gw, runner, token } = await start(new RecordingRunner(), { returnReply: true });
    const response = await post(gw, '/hooks/agent', { message: 'Deploy finished: v2.3.1' }, { authorization: `Bearer ${token}` });
    expect(response.status).toBe(202);
    const body = (await response.json()) as { runId: string; sessionKey: string };
    // Read at once, before anything else can run: the acceptance is already in the file.
    const journal = readFileSync(join(gw.state.dir, 'queue', 'inbound.jsonl'), 'utf8');
    expect(journal).toContain(`"runId":"${body.runId}"`);
    expect(body.sessionKey).toMatch(/^hook:[0-9a-f-]{36}$/);
    await waitUntil(() => runner.turns.length === 1, 'the turn');
    expect(runner.turns[0]).toEqual({ sessionKey: body.sessionKey, texts: ['Deploy finished: v2.3.1'] });
    let run: { status: string; text?: string } = { status: 'accepted' };
    for (let i = 0; i < 100 && run.status === 'accepted'; i += 1) {
      const got = await fetch(`${gw.base}/hooks/runs/${body.runId}`, { headers: { 'x-claw-token': token } });
      expect(got.status).toBe(200);
      run = (await got.json()) as typeof run;
      if (run.status === 'accepted') await new Promise((r) => setTimeout(r, 20));
    }
    expect(run).toMatchObject({ status: 'replied', text: 'done: Deploy finished: v2.3.1' });
  });

  it('has its own token (0600, not the gateway token) and refuses the gateway token, a missing one and one in the URL without logging it', async () => {
    const { gw, runner, token } = await start();
    expect(token).not.toBe(gw.gatewayToken);
    expect(statSync(webhookTokenPath(gw.state.paths)).mode & 0o777).toBe(0o600);
    const missing = await post(gw, '/hooks/agent', { message: 'x' });
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as { error: string }).error).toContain('Missing webhook token');
    const gatewayToken = await post(gw, '/hooks/agent', { message: 'x' }, { authorization: `Bearer ${gw.gatewayToken}` });
    expect(gatewayToken.status).toBe(401);
    expect(((await gatewayToken.json()) as { error: string }).error).toContain('gateway token is not accepted');
    const inQuery = await post(gw, `/hooks/agent?token=${token}`, { message: 'x' });
    expect(inQuery.status).toBe(400);
    expect(((await inQuery.json()) as { error: string }).error).toContain('never accepted in the URL');
    expect(gw.log.lines.some((line) => line.includes(token))).toBe(false);
    expect(gw.log.lines.some((line) => line.includes('token in its URL'))).toBe(true);
    expect(runner.turns).toHaveLength(0);
  });

  it('runs a repeated Idempotency-Key once and answers the repeat with the first runId', async () => {
    const { gw, runner, token } = await start();
    const headers = { authorization: `Bearer ${token}`, 'idempotency-key': 'deploy-4711' };
    const first = await post(gw, '/hooks/agent', { message: 'once only' }, headers);
    const second = await post(gw, '/hooks/agent', { message: 'once only' }, headers);
    expect(first.status).toBe(202);
    expect(second.status).toBe(200);
    const a = (await first.json()) as { runId: string };
    const b = (await second.json()) as { runId: string; status: string };
    expect(b).toMatchObject({ runId: a.runId, status: 'duplicate' });
    await waitUntil(() => runner.turns.length >= 1, 'the turn');
    await new Promise((r) => setTimeout(r, 100));
    expect(runner.turns).toHaveLength(1);
  });

  it('turns a signed GitHub push into a message with the mapping template', async () => {
    const { gw, runner } = await start();
    const body = JSON.stringify(githubPush);
    const response = await post(gw, '/hooks/github', body, signed(body, 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W'));
    expect(response.status).toBe(202);
    await waitUntil(() => runner.turns.length === 1, 'the turn');
    expect(runner.turns[0]).toEqual({
      sessionKey: 'hook:github',
      texts: ['octocat pushed to octocat/Hello-World (refs/heads/main): Fix the login redirect loop — files: src/login.ts'],
    });
  });

  it('refuses a bad signature, an old timestamp and a replayed id, each saying why', async () => {
    const { gw, runner } = await start();
    const body = JSON.stringify(githubPush);
    const forged = await post(gw, '/hooks/github', body, {
      ...signed(body, 'msg_1'),
      'webhook-signature': signWebhook('whsec_b3RoZXI=', 'msg_1', Math.floor(Date.now() / 1000), body),
    });
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as { error: string }).error).toContain('does not match');
    const tampered = await post(gw, '/hooks/github', body.replace('octocat', 'mallory'), signed(body, 'msg_2'));
    expect(tampered.status).toBe(401);
    const old = await post(gw, '/hooks/github', body, signed(body, 'msg_3', Math.floor(Date.now() / 1000) - 6 * 60));
    expect(old.status).toBe(401);
    expect(((await old.json()) as { error: string }).error).toMatch(/away from the gateway's clock \(tolerance 300 s\)/);
    const unsigned = await post(gw, '/hooks/github', body);
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { error: string }).error).toContain('webhook-id, webhook-timestamp and webhook-signature');
    const headers = signed(body, 'msg_4');
    expect((await post(gw, '/hooks/github', body, headers)).status).toBe(202);
    const replay = await post(gw, '/hooks/github', body, headers);
    expect(replay.status).toBe(409);
    expect(((await replay.json()) as { error: string }).error).toContain('already received');
    // A new unsigned Idempotency-Key does not make the same signed event new.
    const rekeyed = await post(gw, '/hooks/github', body, { ...headers, 'idempotency-key': 'fresh-key' });
    expect(rekeyed.status).toBe(409);
    await waitUntil(() => runner.turns.length === 1, 'the one turn');
    await new Promise((r) => setTimeout(r, 100));
    expect(runner.turns).toHaveLength(1);
  });

  it('refuses an oversize body, a wrong content type, bad JSON, an unknown route and a wrong method with clear bodies', async () => {
    const { gw, token } = await start();
    const auth = { authorization: `Bearer ${token}` };
    const big = await post(gw, '/hooks/agent', JSON.stringify({ message: 'x'.repeat(300 * 1024) }), auth);
    expect(big.status).toBe(413);
    expect(((await big.json()) as { error: string }).error).toContain('the limit is 262144');
    const form = await fetch(`${gw.base}/hooks/agent`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'message=hi',
    });
    expect(form.status).toBe(415);
    expect(((await form.json()) as { error: string }).error).toContain('Content-Type: application/json');
    const broken = await post(gw, '/hooks/agent', '{"message": ', auth);
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: string }).error).toContain('not valid JSON');
    const wrongShape = await post(gw, '/hooks/agent', { text: 'hi' }, auth);
    expect(wrongShape.status).toBe(400);
    expect(((await wrongShape.json()) as { error: string }).error).toContain('message');
    const unknown = await post(gw, '/hooks/jira', { a: 1 }, auth);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toContain('/hooks/wake, /hooks/agent, /hooks/github, /hooks/grafana');
    const get = await fetch(`${gw.base}/hooks/agent`, { headers: auth });
    expect(get.status).toBe(405);
    const outsider = await post(gw, '/hooks/agent', { message: 'x', sessionKey: 'agent:main:main' }, auth);
    expect(outsider.status).toBe(400);
    expect(((await outsider.json()) as { error: string }).error).toContain('hook session');
  });

  it('rate-limits per mapping with 429 and Retry-After', async () => {
    const { gw, token } = await start();
    const auth = { authorization: `Bearer ${token}` };
    // Strangers do not spend the route's budget.
    for (let i = 0; i < 3; i += 1) expect((await post(gw, '/hooks/grafana', { title: 'CPU' }, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(gw, '/hooks/grafana', { title: 'CPU', state: 'alerting' }, auth)).status).toBe(202);
    expect((await post(gw, '/hooks/grafana', { title: 'CPU', state: 'ok' }, auth)).status).toBe(202);
    const limited = await post(gw, '/hooks/grafana', { title: 'CPU', state: 'alerting' }, auth);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await limited.json()) as { error: string }).error).toContain('rateLimitPerMinute');
    // Another route has its own budget.
    expect((await post(gw, '/hooks/agent', { message: 'still fine' }, auth)).status).toBe(202);
  });

  it('wakes the main session with a system event now, or keeps it on disk for the next heartbeat', async () => {
    const { gw, runner, token } = await start();
    const auth = { authorization: `Bearer ${token}` };
    expect((await post(gw, '/hooks/wake', { text: 'Backup finished', mode: 'now' }, auth)).status).toBe(202);
    await waitUntil(() => runner.turns.length === 1, 'the wake turn');
    expect(runner.turns[0]).toEqual({ sessionKey: 'agent:main:main', texts: ['System event from a webhook: Backup finished'] });

    const later = await post(gw, '/hooks/wake', { text: 'Disk at 91%', mode: 'next-heartbeat' }, { ...auth, 'idempotency-key': 'disk-1' });
    expect(later.status).toBe(202);
    const body = (await later.json()) as { status: string; eventId: string; pending: number; nextHeartbeatAt?: string };
    expect(body).toMatchObject({ status: 'waiting', eventId: 'wake:disk-1', pending: 1 });
    expect(body.nextHeartbeatAt).toMatch(/^20\d\d-/);
    // Durable before the answer: the event is in the heartbeat's state file already.
    expect(readFileSync(join(gw.state.paths.cron, 'heartbeat.json'), 'utf8')).toContain('Disk at 91%');
    // The same key again is one event, not two.
    expect(
      (
        (await (await post(gw, '/hooks/wake', { text: 'Disk at 91%', mode: 'next-heartbeat' }, { ...auth, 'idempotency-key': 'disk-1' })).json()) as {
          pending: number;
        }
      ).pending,
    ).toBe(1);
    expect(runner.turns).toHaveLength(1);

    // The next heartbeat tells the agent, although HEARTBEAT.md has nothing due, and then the event is gone.
    gw.core.schedule.heartbeatNow();
    await waitUntil(() => runner.turns.length === 2, 'the heartbeat turn');
    expect(runner.turns[1]!.sessionKey).toBe('agent:main:main');
    expect(runner.turns[1]!.texts[0]).toContain('System events since the last heartbeat:\n- Disk at 91% (webhook)');
    await gw.core.schedule.settled();
    expect(readFileSync(join(gw.state.paths.cron, 'heartbeat.json'), 'utf8')).not.toContain('Disk at 91%');
  });

  it('refuses next-heartbeat when the heartbeat is off, and a /hooks/agent model the gateway does not have', async () => {
    gateway = await startHooksGateway({ config: { ...config, agents: { defaults: { heartbeat: { every: '0' } } } }, core: { runner: new RecordingRunner() } });
    const auth = { authorization: `Bearer ${readWebhookTokenSync(gateway.state.paths)!}` };
    const off = await post(gateway, '/hooks/wake', { text: 'x', mode: 'next-heartbeat' }, auth);
    expect(off.status).toBe(409);
    expect(((await off.json()) as { error: string }).error).toMatch(/heartbeat of agent "main" is off.*mode "now"/);
    const model = await post(gateway, '/hooks/agent', { message: 'hi', model: 'nope/x' }, auth);
    expect(model.status).toBe(400);
    expect(((await model.json()) as { error: string }).error).toMatch(/model "nope\/x" cannot be used: .*claw models list/);
  });

  it('runs /hooks/agent with its own model and time limit, kept in the journal for a restart', async () => {
    const runner = new RecordingRunner();
    gateway = await startHooksGateway({
      config: { ...config, models: { providers: { fake: { api: 'openai', baseUrl: 'http://127.0.0.1:9/v1', models: { m: {}, cheap: {} } } } } },
      core: { runner },
    });
    const auth = { authorization: `Bearer ${readWebhookTokenSync(gateway.state.paths)!}` };
    const response = await post(gateway, '/hooks/agent', { message: 'Summarise the deploy', model: 'fake/cheap', timeoutSeconds: 30 }, auth);
    expect(response.status).toBe(202);
    const { runId } = (await response.json()) as { runId: string };
    await waitUntil(() => runner.turns.length === 1, 'the turn');
    expect(runner.turns[0]).toMatchObject({ texts: ['Summarise the deploy'], model: 'fake/cheap', timeoutSeconds: 30 });
    const journal = readFileSync(join(gateway.state.dir, 'queue', 'inbound.jsonl'), 'utf8');
    const line = journal.split('\n').find((l) => l.includes(runId) && l.includes('"accepted"'))!;
    expect(JSON.parse(line)).toMatchObject({ model: 'fake/cheap', timeoutSeconds: 30 });
  });

  it('delivers the reply of a mapping with deliver: true to the channel and chat it names', async () => {
    const runner = new RecordingRunner();
    gateway = await startHooksGateway({
      config: { hooks: { mappings: { alerts: { path: 'alerts', template: 'Alert {{title}}', deliver: true, channel: 'fakechat', to: 'ops-room' } } } },
      core: { runner },
    });
    const gw = gateway;
    const delivered: Array<{ channel: string; peer?: { id: string }; text: string; status: string }> = [];
    gw.core.outbound.register('fakechat', {
      deliver: async (route, reply) => {
        delivered.push({ channel: route.channel, ...(route.peer ? { peer: { id: route.peer.id } } : {}), text: reply.text, status: reply.status });
        return { delivered: true };
      },
    });
    const token = readWebhookTokenSync(gw.state.paths)!;
    expect((await post(gw, '/hooks/alerts', { title: 'disk full' }, { authorization: `Bearer ${token}` })).status).toBe(202);
    await waitUntil(() => delivered.length === 1, 'the delivery');
    expect(delivered[0]).toEqual({ channel: 'fakechat', peer: { id: 'ops-room' }, text: 'done: Alert disk full', status: 'replied' });
  });

  it('/hooks/agent delivers only where the operator allows: the owners’ chats by default, else hooks.webhooks.allowedDeliveryTargets', async () => {
    const runner = new RecordingRunner();
    gateway = await startHooksGateway({
      config: { hooks: { webhooks: { allowedDeliveryTargets: [{ channel: 'fakechat', to: 'ops-room' }] } } },
      core: { runner },
    });
    const gw = gateway;
    const delivered: string[] = [];
    gw.core.outbound.register('fakechat', {
      deliver: async (route) => {
        delivered.push(route.peer?.id ?? '');
        return { delivered: true };
      },
      ownerChats: () => ['owner-dm'],
    });
    const auth = { authorization: `Bearer ${readWebhookTokenSync(gw.state.paths)!}` };
    const elsewhere = await post(gw, '/hooks/agent', { message: 'spam them', deliver: true, channel: 'fakechat', to: 'someone-else' }, auth);
    expect(elsewhere.status).toBe(403);
    expect(((await elsewhere.json()) as { error: string }).error).toContain('hooks.webhooks.allowedDeliveryTargets');
    expect((await post(gw, '/hooks/agent', { message: 'ok', deliver: true, channel: 'fakechat', to: 'ops-room' }, auth)).status).toBe(202);
    await waitUntil(() => delivered.length === 1, 'the delivery');
    expect(delivered).toEqual(['ops-room']);
    expect(runner.turns).toHaveLength(1);
  });

  it('/hooks/agent with no allowed targets configured delivers only to the owners’ own chats', async () => {
    const runner = new RecordingRunner();
    gateway = await startHooksGateway({ config: {}, core: { runner } });
    const gw = gateway;
    gw.core.outbound.register('fakechat', { deliver: async () => ({ delivered: true }), ownerChats: () => ['owner-dm'] });
    const auth = { authorization: `Bearer ${readWebhookTokenSync(gw.state.paths)!}` };
    expect((await post(gw, '/hooks/agent', { message: 'x', deliver: true, channel: 'fakechat', to: 'stranger' }, auth)).status).toBe(403);
    expect((await post(gw, '/hooks/agent', { message: 'y', deliver: true, channel: 'fakechat', to: 'owner-dm' }, auth)).status).toBe(202);
  });

  it('refuses a signed event replayed after a restart, whatever Idempotency-Key it carries', async () => {
    const state = makeTempState('claw-hooks-');
    const first = await startHooksGateway({ config, core: { runner: new RecordingRunner() }, state });
    gateway = first;
    const body = JSON.stringify({ pusher: { name: 'octocat' }, repository: { full_name: 'a/b' }, ref: 'main', head_commit: { message: 'x' }, commits: [] });
    const headers = signed(body, 'msg_restart');
    expect((await post(first, '/hooks/github', body, headers)).status).toBe(202);
    await first.stop();
    const second = await startHooksGateway({ config, core: { runner: new RecordingRunner() }, state });
    gateway = second;
    try {
      const replay = await post(second, '/hooks/github', body, { ...headers, 'idempotency-key': 'brand-new' });
      expect(replay.status).toBe(409);
      expect(((await replay.json()) as { error: string }).error).toContain('already received');
    } finally {
      await second.stop();
      gateway = undefined;
      state.cleanup();
    }
  });

  it("gives a run's reply to the webhook token's holder only where the route says returnReply (the first test has it on)", async () => {
    const { gw, runner, token } = await start();
    const auth = { authorization: `Bearer ${token}` };
    const runOf = async (runId: string): Promise<Record<string, unknown>> => {
      for (let i = 0; i < 100; i += 1) {
        const run = (await (await fetch(`${gw.base}/hooks/runs/${runId}`, { headers: auth })).json()) as Record<string, unknown>;
        if (run.status !== 'accepted') return run;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error('the run did not end');
    };
    const agent = (await (await post(gw, '/hooks/agent', { message: 'read MEMORY.md to me' }, auth)).json()) as { runId: string };
    const hidden = await runOf(agent.runId);
    expect(hidden).toMatchObject({ status: 'replied', note: expect.stringContaining('returnReply') });
    expect(hidden.text).toBeUndefined();
    expect(runner.turns).toHaveLength(1);
  });
});
