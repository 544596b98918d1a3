import { createElement } from 'react';
import { render } from 'ink';
import { Writable, Readable } from 'node:stream';
import { GatewayClient } from '../dist/gateway/index.js';
import { App, TuiController, TuiStore, initialState } from '../dist/tui/index.js';
const mb = () => { globalThis.gc(); const m = process.memoryUsage(); return `rss ${m.rss/1048576|0} heap ${m.heapUsed/1048576|0}`; };
const key = 'agent:main:main';
class Tty extends Writable { isTTY = true; columns = 160; rows = 48; frames = 0; _write(c, e, cb) { this.frames++; cb(); } }
const stdin = new Readable({ read() {} }); stdin.isTTY = true; stdin.setRawMode = () => {}; stdin.ref = () => {}; stdin.unref = () => {};
const stdout = new Tty();
const store = new TuiStore(initialState(), { frameMs: 1_000_000 });
const client = new GatewayClient({ url: 'ws://127.0.0.1:9', token: 'unused' });
const app = render(createElement(App, { store, controller: new TuiController(client, store), exit: () => {}, size: { cols: 160, rows: 48 } }), { stdout, stdin, patchConsole: false, exitOnCtrlC: false, maxFps: 1000 });
await new Promise((r) => setTimeout(r, 100));
console.log('rendered', mb());
const n = Number(process.argv[2]);
for (let i = 0; i < n; i++) { store.applyEvent('chat', { runId: 'live', sessionKey: key, state: 'delta', delta: `token${i} ` }); store.flush(); await new Promise((r) => setTimeout(r, 2)); }
console.log('streamed', n, mb(), stdout.frames);
app.unmount(); process.exit(0);
