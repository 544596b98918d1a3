import { createFileLogger } from '../../source/config/index.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../source/config/index.js';
import { GatewayServer } from '../../source/gateway/index.js';
import { ensureGatewayTokenSync } from '../../source/config/index.js';
import type { GatewayClient } from '../../source/client/index.js';
import { PRE_AUTH_MAX_BYTES, PROTOCOL_VERSION, closeCodes } from '../../source/protocol/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { UpgradeRefused, connectParams, openConnected, openRaw, type RawClient } from './raw-client.js';

let gw: TestGateway;
let bystander: GatewayClient;
const raws: RawClient[] = [];

async function raw(options: Parameters<typeof openRaw>[1] = {}): Promise<RawClient> {
  const client = await openRaw(gw.url, options);
  raws.push(client);
  return client;
}

async function stillServing(): Promise<void> {
  const health = await bystander.request('health');
  expect(health.ok).toBe(true);
}

beforeEach(async () => {
  gw = await startTestGateway();
  bystander = await gw.connect({ clientName: 'bystander' });
});

afterEach(async () => {
  for (const client of raws.splice(0)) client.ws.terminate();
  await gw.stop();
});

describe('gateway: bad input before connect', () => {
  it('closes on malformed JSON with a clear reason', async () => {
    const client = await raw();
    client.send('{"type":"req", nope');
    expect(await client.closed).toEqual({ code: closeCodes.badFrame, reason: 'malformed JSON frame' });
    await stillServing();
  });

  it.each(['[1,2,3]', '"text"', '42', 'null'])('closes on a frame that is not an object: %s', async (text) => {
    const client = await raw();
    client.send(text);
    expect(await client.closed).toEqual({ code: closeCodes.badFrame, reason: 'frame must be a JSON object' });
    await stillServing();
  });

  it('closes when the first request is not connect', async () => {
    const client = await raw();
    client.send({ type: 'req', id: '1', method: 'health' });
    expect(await client.closed).toEqual({ code: closeCodes.badFrame, reason: 'the first request must be connect' });
    await stillServing();
  });

  it('answers invalid connect params with the failing field, then closes', async () => {
    const client = await raw();
    const res = await client.request('connect', { ...connectParams(gw.token), role: 'root' });
    expect(res.ok).toBe(false);
    expect(res.error).toMatchObject({ code: 'bad_request' });
    expect(String((res.error as { message: string }).message)).toContain('role');
    expect((await client.closed).code).toBe(closeCodes.badFrame);
    await stillServing();
  });

  it('refuses a wrong token with unauthorized and closes', async () => {
    const client = await raw();
    const res = await client.request('connect', connectParams('not-the-token'));
    expect(res).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect(String((res.error as { message: string }).message)).toContain('claw gateway token');
    expect((await client.closed).code).toBe(closeCodes.unauthorized);
    await stillServing();
  });

  it('refuses a connect without any token', async () => {
    const client = await raw();
    const res = await client.request('connect', connectParams(undefined));
    expect(res).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    expect((await client.closed).code).toBe(closeCodes.unauthorized);
  });

  it('closes on a pre-auth frame over 64 KiB without buffering it', async () => {
    const client = await raw();
    client.send({ type: 'req', id: '1', method: 'connect', params: { pad: 'x'.repeat(PRE_AUTH_MAX_BYTES + 10) } });
    expect((await client.closed).code).toBe(closeCodes.tooBig);
    await stillServing();
  });

  it('refuses a protocol it does not speak, naming both versions', async () => {
    const client = await raw();
    const res = await client.request('connect', { ...connectParams(gw.token), minProtocol: PROTOCOL_VERSION + 1, maxProtocol: PROTOCOL_VERSION + 2 });
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    const closed = await client.closed;
    expect(closed.code).toBe(closeCodes.protocolMismatch);
    expect(closed.reason).toContain(`gateway speaks ${PROTOCOL_VERSION}`);
    await stillServing();
  });

  it('rejects binary frames', async () => {
    const client = await raw();
    client.ws.send(Buffer.from('{"type":"req"}'), { binary: true });
    expect((await client.closed).code).toBe(closeCodes.badFrame);
    await stillServing();
  });
});

describe('gateway: bad input after connect', () => {
  it('answers an unknown method with not_found and keeps the connection', async () => {
    const { raw: client } = await openConnected(gw.url, gw.token);
    raws.push(client);
    const res = await client.request('no.such.method', {});
    expect(res).toMatchObject({ ok: false, error: { code: 'not_found', retryable: false } });
    expect(String((res.error as { message: string }).message)).toContain('no.such.method');
    expect(await client.request('health')).toMatchObject({ ok: true });
    await stillServing();
  });

  it('answers params failing the schema with bad_request naming the key', async () => {
    const { raw: client } = await openConnected(gw.url, gw.token);
    raws.push(client);
    const res = await client.request('gateway.shutdown', { restart: 'yes' });
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(String((res.error as { message: string }).message)).toMatch(/gateway\.shutdown.*restart/);
    expect(await client.request('status')).toMatchObject({ ok: true });
  });

  it('answers a request-shaped frame with missing fields with bad_request', async () => {
    const { raw: client } = await openConnected(gw.url, gw.token);
    raws.push(client);
    client.send({ type: 'req', id: 'x1' });
    const res = await client.next((f) => f.id === 'x1');
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await client.request('health')).toMatchObject({ ok: true });
  });

  it('refuses a second connect on an open connection', async () => {
    const { raw: client } = await openConnected(gw.url, gw.token);
    raws.push(client);
    const res = await client.request('connect', connectParams(gw.token));
    expect(res).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('refuses a method outside the granted scopes', async () => {
    const { raw: client } = await openConnected(gw.url, gw.token, { scopes: ['read'] });
    raws.push(client);
    const res = await client.request('gateway.shutdown', {});
    expect(res).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  });
});

describe('gateway: Authorization header', () => {
  it('accepts a Bearer token in the upgrade and a connect without auth', async () => {
    const client = await raw({ headers: { authorization: `Bearer ${gw.token}` } });
    const res = await client.request('connect', connectParams(undefined));
    expect(res).toMatchObject({ ok: true });
    expect(await client.request('health')).toMatchObject({ ok: true });
  });

  it('answers a wrong Bearer token with HTTP 401 before the socket opens', async () => {
    const refused = await raw({ headers: { authorization: 'Bearer wrong-token-value' } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpgradeRefused);
    expect((refused as UpgradeRefused).status).toBe(401);
    await stillServing();
  });
});

describe('gateway: token in the URL', () => {
  let state: TempState;
  let server: GatewayServer;

  beforeEach(async () => {
    state = makeTempState();
    const token = ensureGatewayTokenSync(state.paths, {});
    server = new GatewayServer({
      config: loadConfig(state.paths.config),
      paths: state.paths,
      port: 0,
      bind: '127.0.0.1',
      token,
      log: createFileLogger(state.paths.logs),
    });
    await server.start();
  });

  afterEach(async () => {
    await server.stop('test finished');
    state.cleanup();
  });

  it('refuses it with HTTP 400 and never writes it to the log', async () => {
    const token = readFileSync(state.paths.gatewayToken, 'utf8').trim();
    for (const key of ['token', 'access_token']) {
      const refused = await openRaw(`ws://127.0.0.1:${server.port}/?${key}=${token}`).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(UpgradeRefused);
      expect((refused as UpgradeRefused).status).toBe(400);
      expect((refused as UpgradeRefused).body).toContain('never accepted in URLs');
    }
    const logs = readdirSync(state.paths.logs)
      .map((name) => readFileSync(join(state.paths.logs, name), 'utf8'))
      .join('\n');
    expect(logs).toContain('token in the URL');
    expect(logs).not.toContain(token);
    const { raw: client } = await openConnected(`ws://127.0.0.1:${server.port}`, token);
    expect(await client.request('health')).toMatchObject({ ok: true });
    client.ws.terminate();
  });
});

describe('gateway: auth lockout', () => {
  it('locks wrong tokens out after 10 failures, from every loopback address, while the right token is always let in', async () => {
    for (let i = 0; i < 10; i += 1) {
      const client = await raw();
      const res = await client.request('connect', connectParams('wrong'));
      expect(res).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
      await client.closed;
    }
    // A wrong token in the upgrade is refused with 429 and Retry-After.
    const refused = await raw({ headers: { authorization: 'Bearer still-wrong' } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UpgradeRefused);
    expect((refused as UpgradeRefused).status).toBe(429);
    expect(Number((refused as UpgradeRefused).retryAfter)).toBeGreaterThan(0);
    // A wrong token in the connect frame is closed as locked out.
    const late = await raw();
    const answer = await late.request('connect', connectParams('wrong again'));
    expect(answer).toMatchObject({ ok: false, error: { code: 'rate_limited' } });
    await late.closed;
    // The operator's right token is not refused: in the upgrade, in the connect frame, and over /status.
    const { raw: byHeader } = await openConnected(gw.url, gw.token, {}, { headers: { authorization: `Bearer ${gw.token}` } });
    expect(await byHeader.request('health')).toMatchObject({ ok: true });
    byHeader.ws.terminate();
    const operator = await gw.connect({ clientName: 'operator after the lockout' });
    expect((await operator.request('health')).ok).toBe(true);
    const status = await fetch(`${gw.url.replace('ws:', 'http:')}/status`, { headers: { authorization: `Bearer ${gw.token}` } });
    expect(status.status).toBe(200);
    await stillServing();
    // Every loopback address is the same machine: 127.0.0.2 does not get a fresh count.
    const other = await openConnected(gw.url, 'wrong', {}, { localAddress: '127.0.0.2' }).catch((error: unknown) => error);
    expect(String(other)).toContain('rate_limited');
  });
});

describe('gateway: connect timeout', () => {
  it('closes a socket that never sends connect', async () => {
    const state = makeTempState();
    const server = new GatewayServer({
      config: loadConfig(state.paths.config),
      paths: state.paths,
      port: 0,
      bind: '127.0.0.1',
      token: ensureGatewayTokenSync(state.paths, {}),
      log: createFileLogger(state.paths.logs),
      connectTimeoutMs: 300,
    });
    try {
      await server.start();
      const client = await openRaw(`ws://127.0.0.1:${server.port}`);
      const closed = await client.closed;
      expect(closed.code).toBe(closeCodes.connectTimeout);
      expect(closed.reason).toContain('connect timeout');
    } finally {
      await server.stop('test finished');
      state.cleanup();
    }
  });
});
