import { Readable, Writable } from 'node:stream';
import { agent, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';

/**
 * A small coding agent speaking the Agent Client Protocol on stdio, built with
 * the official SDK. Run with `node --import tsx test/support/acp-test-agent.ts`.
 * On a prompt it streams two text chunks, reads `notes.txt` through the
 * client, reports a tool call, asks permission to write `acp-output.txt`,
 * writes it through the client when allowed, and ends the turn. A prompt
 * containing "hang" waits until it is cancelled; one containing "escape"
 * tries to write outside its workspace and reports what the client said.
 */
const sessions = new Map<string, AbortController>();

const app = agent({ name: 'claw-test-acp-agent' })
  .onRequest('initialize', () => ({ protocolVersion: PROTOCOL_VERSION, agentCapabilities: { loadSession: false } }))
  .onRequest('session/new', () => {
    const sessionId = `s${sessions.size + 1}`;
    sessions.set(sessionId, new AbortController());
    return { sessionId };
  })
  .onNotification('session/cancel', ({ params }) => sessions.get(params.sessionId)?.abort())
  .onRequest('session/prompt', async ({ params, client }) => {
    const { sessionId } = params;
    const cancelled = sessions.get(sessionId)!.signal;
    const prompt = params.prompt.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    const say = (text: string) =>
      client.notify('session/update', { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } });
    if (prompt.includes('hang')) {
      if (!cancelled.aborted) await new Promise<void>((resolve) => cancelled.addEventListener('abort', () => resolve(), { once: true }));
      return { stopReason: 'cancelled' as const };
    }
    if (prompt.includes('escape')) {
      const answer = await client.request('fs/write_text_file', { sessionId, path: '../escaped-acp.txt', content: 'out\n' }).then(
        () => 'the write went through',
        (error: unknown) => `the write was refused (${error instanceof Error ? error.message : JSON.stringify(error)})`,
      );
      await say(`Tried ../escaped-acp.txt: ${answer}.`);
      return { stopReason: 'end_turn' as const };
    }
    await say('Working on it. ');
    const notes = await client.request('fs/read_text_file', { sessionId, path: 'notes.txt' }).then(
      (r) => r.content.trim(),
      (error: unknown) => `unreadable (${error instanceof Error ? error.message : String(error)})`,
    );
    await client.notify('session/update', {
      sessionId,
      update: { sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Write acp-output.txt', kind: 'edit', status: 'pending' },
    });
    const permission = await client.request('session/request_permission', {
      sessionId,
      toolCall: { toolCallId: 't1', title: 'Write acp-output.txt' },
      options: [
        { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
        { optionId: 'no', name: 'Reject', kind: 'reject_once' },
      ],
    });
    const allowed = permission.outcome.outcome === 'selected' && permission.outcome.optionId === 'yes';
    if (allowed) await client.request('fs/write_text_file', { sessionId, path: 'acp-output.txt', content: `notes said: ${notes}\n` });
    await client.notify('session/update', {
      sessionId,
      update: { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: allowed ? 'completed' : 'failed' },
    });
    await say(allowed ? `Wrote acp-output.txt from notes (${notes}).` : 'Permission denied; wrote nothing.');
    return { stopReason: 'end_turn' as const };
  });

const connection = app.connect(
  ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>),
);
void connection.closed.then(() => process.exit(0));
