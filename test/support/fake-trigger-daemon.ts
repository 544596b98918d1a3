/**
 * A daemon made of the core alone plus one trigger built only from the core's
 * ports: it accepts a message on a channel of its own (`fake`) and writes
 * every reply `outbound` hands it to a JSON-lines file. Run with tsx:
 *   node --import tsx test/support/fake-trigger-daemon.ts <deliveries.jsonl> [text]
 * It prints the accept result as one JSON line, then runs until killed.
 */
import { appendFileSync } from 'node:fs';
import { loadConfig, silentLogger, statePaths } from '../../source/config/index.js';
import { createCore, EventBus, type CorePorts, type Service } from '../../source/core/index.js';

const [deliveries, text] = process.argv.slice(2);
if (!deliveries) throw new Error('usage: fake-trigger-daemon.ts <deliveries.jsonl> [text]');

const trigger: Service = {
  name: 'fake-trigger',
  async start(core: Pick<CorePorts, 'outbound' | 'inbound'>) {
    core.outbound.register('fake', {
      async deliver(route, reply) {
        appendFileSync(deliveries, `${JSON.stringify({ route, reply })}\n`);
        return { delivered: true, messageId: `out-${reply.messageId}` };
      },
    });
    if (text === undefined) return;
    const accepted = await core.inbound.accept({
      channel: 'fake',
      accountId: 'acct-1',
      peer: { kind: 'direct', id: 'peer-7' },
      threadId: 'thread-3',
      messageId: 'fake-message-1',
      text,
    });
    process.stdout.write(`${JSON.stringify(accepted)}\n`);
  },
};

const paths = statePaths();
const core = await createCore({ config: loadConfig(paths.config), paths, log: silentLogger, events: new EventBus(100), services: [trigger] });
await core.start();
setInterval(() => undefined, 60_000);
