import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gatewayStatus, writeGatewayInfoSync } from '../../source/client/index.js';
import { createScopedToken, ensureGatewayTokenSync, hashToken } from '../../source/config/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { makeTempState } from '../support/temp-state.js';

let gw: TestGateway | undefined;

afterEach(async () => {
  await gw?.stop();
  gw = undefined;
});

interface Answer {
  status: number;
  body: { error?: { code: string; message: string } } & Record<string, unknown>;
}

function get(gateway: TestGateway, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  const url = new URL('/status', gateway.url.replace(/^ws:/, 'http:'));
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('gateway: GET /status', () => {
  it('answers the main token with what the status method answers over a WebSocket', async () => {
    gw = await startTestGateway();
    const overHttp = await get(gw, { authorization: `Bearer ${gw.token}` });
    expect(overHttp.status).toBe(200);
    const client = await gw.connect();
    const overWs = (await client.request('status')) as unknown as Record<string, unknown>;
    expect(Object.keys(overHttp.body).sort()).toEqual(Object.keys(overWs).sort());
    expect(overHttp.body).toMatchObject({ pid: process.pid, port: overWs.port, stateDir: gw.state.dir, version: overWs.version });
    // The HTTP caller is not a connected client.
    expect((overHttp.body.clients as unknown[]).length).toBe((overWs.clients as unknown[]).length - 1);
  });

  it('refuses a missing or wrong token with 401 and says where the token is', async () => {
    gw = await startTestGateway();
    const cases: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong' }, { authorization: gw.token }];
    for (const headers of cases) {
      const answer = await get(gw, headers);
      expect(answer.status).toBe(401);
      expect(answer.body.error?.message).toContain('claw gateway token');
      expect(answer.body).not.toHaveProperty('pid');
    }
  });

  it('counts wrong tokens toward the same lockout as WebSocket connects, and lets the right token in', async () => {
    gw = await startTestGateway();
    for (let i = 0; i < 10; i += 1) expect((await get(gw, { authorization: `Bearer wrong-${i}` })).status).toBe(401);
    expect((await get(gw, { authorization: 'Bearer wrong-again' })).status).toBe(429);
    await expect(gw.connect({ token: 'wrong over the socket' })).rejects.toThrow(/too many failed auth attempts/i);
    expect((await get(gw, { authorization: `Bearer ${gw.token}` })).status).toBe(200);
    expect((await (await gw.connect()).request('health')).ok).toBe(true);
  });

  it('refuses a browser origin, and methods other than GET', async () => {
    gw = await startTestGateway();
    const browser = await get(gw, { authorization: `Bearer ${gw.token}`, origin: 'http://evil.example' });
    expect(browser.status).toBe(403);
    expect(browser.body.error?.message).toContain('gateway.allowedOrigins');
    expect((await get(gw, { authorization: `Bearer ${gw.token}` }, 'POST')).status).toBe(405);
  });

  it('checks a scoped token against the scope status needs', async () => {
    gw = await startTestGateway();
    const reader = createScopedToken(gw.state.paths, ['read'], 'reader').token;
    expect((await get(gw, { authorization: `Bearer ${reader}` })).status).toBe(200);
    const approver = createScopedToken(gw.state.paths, ['approvals'], 'approver').token;
    const refused = await get(gw, { authorization: `Bearer ${approver}` });
    expect(refused.status).toBe(403);
    expect(refused.body.error?.message).toContain('"read" scope');
  });
});

describe('claw status against a gateway without GET /status', () => {
  it('says the gateway predates it and how to restart it, with what gateway.json tells', async () => {
    // What a gateway of an older claw answers: its own routes only.
    const old = createServer((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}'));
    await new Promise<void>((resolve) => old.listen(0, '127.0.0.1', resolve));
    const state = makeTempState();
    try {
      const token = ensureGatewayTokenSync(state.paths, {});
      const port = (old.address() as AddressInfo).port;
      writeGatewayInfoSync(state.paths, { pid: process.pid, port, bind: '127.0.0.1', tokenHash: hashToken(token), startedAt: 1, version: '0.0.9', epoch: 'e' });
      const status = await gatewayStatus(state.paths);
      expect(status).toMatchObject({ running: true, source: 'pidfile', info: { port, version: '0.0.9' } });
      expect(status.running && status.source === 'pidfile' ? status.error : '').toMatch(/claw 0\.0\.9.*claw gateway restart/);
    } finally {
      old.close();
      state.cleanup();
    }
  });
});
