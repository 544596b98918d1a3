// A client in its own process (node test/support/reply-watcher.mjs URL TOKEN
// OUT): prints "ready" once connected, then creates OUT as soon as a `chat`
// frame ending a reply arrives, so a test can see that frame arrive while the
// gateway's own event loop is still busy.
import { writeFileSync } from 'node:fs';
import { GatewayClient } from '../../dist/client/index.js';

const [url, token, out] = process.argv.slice(2);
const client = new GatewayClient({ url, token, clientName: 'reply-watcher' });
client.on('chat', (payload) => {
  if (payload.state !== 'delta') writeFileSync(out, JSON.stringify(payload));
});
await client.connect();
process.stdout.write('ready\n');
