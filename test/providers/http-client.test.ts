import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { baseRequest, collect, collectUntilError, makeProviders, textOf } from './helpers.js';

/**
 * The provider's HTTP client on the wire: a bare server that counts TCP
 * connections and can hold a stream open, which the scripted fakes do not show.
 */
interface WireServer {
  baseUrl: string;
  connections: number;
  closedSockets: number;
  bodies: Array<{ contentLength: number; bytes: number; text: string }>;
  /** Set to make the next answer send one delta and then hang. */
  hang: boolean;
  close(): Promise<void>;
}

function chunk(body: unknown): string {
  return `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', ...(body as object) })}\n\n`;
}

async function startWireServer(): Promise<WireServer> {
  const sockets = new Set<Socket>();
  const wire: WireServer = {
    baseUrl: '',
    connections: 0,
    closedSockets: 0,
    bodies: [],
    hang: false,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (part: Buffer) => chunks.push(part));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      wire.bodies.push({ contentLength: Number(req.headers['content-length']), bytes: raw.length, text: raw.toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Hello.' }, finish_reason: null }] }));
      if (wire.hang) return;
      res.write(chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      res.end('data: [DONE]\n\n');
    });
  });
  server.on('connection', (socket: Socket) => {
    wire.connections += 1;
    sockets.add(socket);
    socket.on('close', () => {
      wire.closedSockets += 1;
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  wire.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return wire;
}

const config = (baseUrl: string) => ({
  models: { providers: { wire: { api: 'openai' as const, baseUrl, models: { m: { contextWindow: 32_000 } } } } },
});

let state: TempState;
let wire: WireServer;

beforeEach(async () => {
  state = makeTempState();
  wire = await startWireServer();
});
afterEach(async () => {
  await wire.close();
  state.cleanup();
});

describe('provider HTTP client', () => {
  it('sends the whole body with its byte length, and keeps one connection across calls', async () => {
    const providers = makeProviders(state, config(wire.baseUrl));
    const text = 'naïve café ✓ 日本語 🙂';
    for (let i = 0; i < 3; i += 1) {
      const events = await collect(providers.streamTurn(baseRequest('wire/m', { messages: [{ role: 'user', content: `${text} ${i}` }] })));
      expect(textOf(events)).toBe('Hello.');
    }
    expect(wire.bodies).toHaveLength(3);
    for (const [i, body] of wire.bodies.entries()) {
      expect(body.contentLength).toBe(body.bytes);
      expect(JSON.parse(body.text).messages.at(-1)).toEqual({ role: 'user', content: `${text} ${i}` });
    }
    expect(wire.connections).toBe(1);
  });

  it('reports a refused connection as a network error that names the cause', async () => {
    const closed = await startWireServer();
    await closed.close();
    const providers = makeProviders(state, config(closed.baseUrl), { policy: { maxRetries: 0 } });
    const { error } = await collectUntilError(providers.streamTurn(baseRequest('wire/m')));
    expect(error).toMatchObject({ kind: 'network', message: expect.stringContaining('ECONNREFUSED') });
  });

  it('closes the connection when the turn is aborted mid-stream', async () => {
    wire.hang = true;
    const providers = makeProviders(state, config(wire.baseUrl));
    const controller = new AbortController();
    const run = (async () => {
      for await (const event of providers.streamTurn(baseRequest('wire/m', { signal: controller.signal }))) {
        if (event.type === 'text_delta') controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ kind: 'aborted' });
    for (let i = 0; i < 100 && wire.closedSockets === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(wire.closedSockets).toBe(1);
  });
});
