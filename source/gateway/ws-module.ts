import { createRequire } from 'node:module';
import type * as Ws from 'ws';

/**
 * ws is CommonJS. An ESM `import` of it makes Node lex its source for named
 * exports at every start (about 80 ms of `claw status` on a small machine);
 * require() skips that scan.
 */
const ws = createRequire(import.meta.url)('ws') as typeof Ws;

export const WebSocketServer = ws.WebSocketServer;
export type WebSocketServer = Ws.WebSocketServer;
export type WebSocket = Ws.WebSocket;
