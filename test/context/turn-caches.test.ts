import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureWorkspaceSync } from '../../source/agent/index.js';
import { startFakeOpenAI } from '../support/fake-openai-server.js';
import type { FakeLlmServer, RecordedRequest } from '../support/fake-llm-common.js';
import type { TestGateway } from '../support/gateway-harness.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { kindOf, lastUserText, recordEvents, route, smallWindowConfig, startContextGateway, systemOf, turn, KEY } from './context-gateway.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
let state: TempState | undefined;

afterEach(async () => {
  await gateway?.stop();
  await llm?.close();
  state?.cleanup();
  gateway = undefined;
  llm = undefined;
  state = undefined;
});

const SUMMARY = '## Decisions\n- kept\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- none';

function turnRequests(): RecordedRequest[] {
  return llm!.requests.filter((request) => kindOf(request) === 'turn');
}

/** What the model was sent after the system prompt, as role:text lines. */
function historyOf(request: RecordedRequest): string[] {
  const messages = request.body.messages as Array<{ role: string; content: unknown }>;
  return messages.filter((message) => message.role !== 'system').map((message) => `${message.role}:${String(message.content).slice(0, 40)}`);
}

// What a turn reuses from the last one (bootstrap text, encoded history, the context account) follows every change.
describe('what a turn reuses from the one before', () => {
  it('follows an edited bootstrap file, new history, a compaction and its undo', async () => {
    llm = await startFakeOpenAI();
    llm.setDefault(
      route({
        turn: (request) => ({ text: `Reply to: ${lastUserText(request).slice(0, 30)}`, usage: { input: 700, output: 10 } }),
        summary: () => ({ text: SUMMARY }),
      }),
    );
    state = makeTempState();
    gateway = await startContextGateway(smallWindowConfig(llm), state);
    const workspace = gateway.state.paths.workspace('main');
    ensureWorkspaceSync(workspace);
    writeFileSync(join(workspace, 'AGENTS.md'), '# Rules\nversion one of the rules\n');
    const client = await gateway.connect();
    const events = recordEvents(client);

    await turn(client, events, 'first message');
    await turn(client, events, 'second message');
    expect(systemOf(turnRequests()[1]!)).toContain('version one of the rules');
    expect(historyOf(turnRequests()[1]!)).toEqual(['user:first message', 'assistant:Reply to: first message', 'user:second message']);

    writeFileSync(join(workspace, 'AGENTS.md'), '# Rules\nversion two of the rules, longer\n');
    await turn(client, events, 'third message');
    const third = systemOf(turnRequests()[2]!);
    expect(third).toContain('version two of the rules, longer');
    expect(third).not.toContain('version one');
    expect(historyOf(turnRequests()[2]!)).toHaveLength(5);

    for (let i = 4; i <= 6; i += 1) await turn(client, events, `message ${i}: ${'detail '.repeat(80)}`);
    const beforeCompaction = historyOf(turnRequests().at(-1)!);
    const compacted = await client.request('commands.run', { sessionKey: KEY, text: '/compact' });
    expect(compacted.reply).toMatch(/^Compacted \d+ older messages/);
    const contextAfterCompaction = events.context.at(-1)!;
    expect(contextAfterCompaction.compactions).toHaveLength(1);
    expect(contextAfterCompaction.parts.find((part) => part.name === 'history:summary')!.tokens).toBeGreaterThan(0);

    await turn(client, events, 'after the compaction');
    const afterCompaction = historyOf(turnRequests().at(-1)!);
    expect(afterCompaction[0]).toMatch(/^user:\[Summary of the earlier conversation\]/);
    expect(afterCompaction).not.toContain('user:first message');
    expect(afterCompaction.length).toBeLessThan(beforeCompaction.length);

    await client.request('commands.run', { sessionKey: KEY, text: '/compact undo' });
    expect(events.context.at(-1)!.compactions).toHaveLength(0);
    await turn(client, events, 'after the undo');
    const afterUndo = historyOf(turnRequests().at(-1)!);
    expect(afterUndo[0]).toBe('user:first message');
    expect(afterUndo.some((line) => line.startsWith('user:[Summary'))).toBe(false);
    expect(afterUndo.at(-1)).toBe('user:after the undo');
  });
});
