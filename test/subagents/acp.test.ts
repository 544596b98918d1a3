import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TuiController } from '../../source/tui/controller.js';
import { initialState } from '../../source/tui/store/state.js';
import { TuiStore } from '../../source/tui/store/store.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { tsNodeArgs } from '../support/mcp-servers.js';
import { assistantTexts, calledSince, entriesOf, lastUserText, toolNamesOf, userMessages, waitFor } from './subagents-harness.js';

let gateway: TestGateway | undefined;
let llm: FakeLlmServer | undefined;
const cleanup: Array<() => void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0)) step();
  await gateway?.stop();
  await llm?.close();
  gateway = undefined;
  llm = undefined;
});

const PARENT = 'agent:main:main';

async function start(task: string): Promise<TestGateway> {
  llm = await startFakeOpenAI();
  llm.setDefault((request) => {
    if (lastUserText(request).includes('[subagent_result]')) return { text: 'The external agent reported back.' };
    if (!calledSince(request, 'sessions_spawn'))
      return { toolCalls: [{ name: 'sessions_spawn', arguments: { runtime: 'acp', agent: 'tester', task, label: 'acp-job' } }] };
    return { text: 'Handed to the external agent.' };
  });
  gateway = await startTestGateway({
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m', heartbeat: { every: '0' } } },
      acp: { agents: { tester: { command: process.execPath, args: tsNodeArgs('acp-test-agent.ts') } } },
    },
    core: {},
  });
  return gateway;
}

describe('external coding agents as children (runtime acp)', () => {
  it('streams into the tree, asks permission through the approval inbox (answered from the TUI store), writes inside the workspace, and reports to the parent', async () => {
    const gateway = await start('write the output file');
    const workspace = gateway.core.agent.workspaceDir('main');
    const client = await gateway.connect({ clientName: 'tui · acp' });
    const store = new TuiStore(initialState(), { frameMs: 5, now: () => Date.now() });
    const controller = new TuiController(client, store);
    controller.attach();
    cleanup.push(() => {
      controller.detach();
      store.dispose();
    });
    // The file the external agent reads, there before anything starts.
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'notes.txt'), 'hello notes\n');
    await client.request('chat.send', { sessionKey: PARENT, text: 'do it in the tester agent' });

    const approval = await waitFor('the permission request in the TUI store', () => store.getState().approvals.pending[0], 20_000);
    expect(approval.kind).toBe('acp');
    expect(approval.command).toBe('tester: Write acp-output.txt');
    expect(approval.reason).toMatch(
      /^sub-agent "acp-job" \(agent:main:subagent:[^)]+\), spawned by agent:main:main: external agent "tester" asks to Write acp-output.txt/,
    );
    // The tree event follows the request within its coalescing window.
    await waitFor('the tool in the tree', () => store.getState().subagents.find((n) => n.label === 'acp-job' && n.lastTool));
    expect(store.getState().subagents.find((n) => n.label === 'acp-job')).toMatchObject({
      runtime: 'acp:tester',
      status: 'running',
      lastTool: 'Write acp-output.txt',
    });
    await controller.resolveApproval(approval, 'once');

    const node = await waitFor('the child to be delivered', () => gateway.core.subagents.list(PARENT).find((n) => n.delivery === 'delivered'), 20_000);
    expect(node.status).toBe('done');
    expect(readFileSync(join(workspace, 'acp-output.txt'), 'utf8')).toBe('notes said: hello notes\n');
    // The child's transcript holds what the agent did, as a claw turn would: text, the tool call, its result, the reply.
    const entries = await entriesOf(gateway.core, node.key);
    expect(assistantTexts(entries)).toEqual(['Working on it. ', 'Wrote acp-output.txt from notes (hello notes).']);
    expect(entries.flatMap((e) => (e.type === 'message' && e.role === 'assistant' ? e.content.filter((b) => b.type === 'toolCall') : []))).toEqual([
      { type: 'toolCall', id: 't1', name: 'Write acp-output.txt', arguments: {} },
    ]);
    expect(entries.find((e) => e.type === 'message' && e.role === 'toolResult')).toMatchObject({ toolCallId: 't1', isError: false });
    const result = await waitFor('the result in the parent', async () =>
      userMessages(await entriesOf(gateway.core, PARENT)).find((m) => m.text.startsWith('[subagent_result]')),
    );
    expect(result.text).toContain('Wrote acp-output.txt from notes (hello notes).');
    // The spawn tool tells the model when to pick an external agent.
    const described = (llm!.requests[0]!.body.tools as Array<{ function: { name: string; description: string } }>).find(
      (t) => t.function.name === 'sessions_spawn',
    )!;
    expect(described.function.description).toContain('use runtime "acp" with agent set to one of: tester');
    expect(toolNamesOf(llm!.requests[0]!)).toContain('sessions_spawn');
  });

  it('a denied permission writes nothing, and cancelling the child stops the external agent', async () => {
    const gateway = await start('write the output file');
    const workspace = gateway.core.agent.workspaceDir('main');
    const client = await gateway.connect();
    await client.request('chat.send', { sessionKey: PARENT, text: 'do it in the tester agent' });
    const approval = await waitFor('the permission request', () => gateway.core.tools.inbox.list('pending')[0], 20_000);
    gateway.core.tools.inbox.resolve(approval.id, 'deny', 'test');
    const node = await waitFor('the child to finish', () => gateway.core.subagents.list(PARENT).find((n) => n.status === 'done'), 20_000);
    expect(existsSync(join(workspace, 'acp-output.txt'))).toBe(false);
    expect(assistantTexts(await entriesOf(gateway.core, node.key)).join('')).toContain('Permission denied; wrote nothing.');

    const hanging = await gateway.core.subagents.spawn({ parentKey: PARENT, task: 'hang until cancelled', runtime: 'acp', agent: 'tester', label: 'hanger' });
    await waitFor(
      'the hanging child to run',
      () => gateway.core.subagents.list(PARENT).find((n) => n.runId === hanging.runId && n.status === 'running'),
      20_000,
    );
    gateway.core.subagents.cancel(hanging.runId);
    const cancelled = await waitFor(
      'the cancel',
      () => gateway.core.subagents.list(PARENT).find((n) => n.runId === hanging.runId && n.endedAt !== undefined),
      20_000,
    );
    expect(cancelled.status).toBe('cancelled');
    await expect(gateway.core.subagents.spawn({ parentKey: PARENT, task: 'x', runtime: 'acp', agent: 'nobody' })).rejects.toThrow(
      'No ACP agent "nobody". Configured: tester.',
    );
  });
  it('a write outside the confined workspace is refused, and the refusal reaches the parent', async () => {
    const gateway = await start('escape the workspace');
    const workspace = gateway.core.agent.workspaceDir('main');
    const client = await gateway.connect();
    await client.request('chat.send', { sessionKey: PARENT, text: 'do it in the tester agent' });
    const node = await waitFor('the child to be delivered', () => gateway.core.subagents.list(PARENT).find((n) => n.delivery === 'delivered'), 20_000);
    expect(node.status).toBe('done');
    expect(existsSync(join(workspace, '..', 'escaped-acp.txt'))).toBe(false);
    const result = await waitFor('the result in the parent', async () =>
      userMessages(await entriesOf(gateway.core, PARENT)).find((m) => m.text.startsWith('[subagent_result]')),
    );
    // The agent was told (its own words), and claw says so itself whatever the agent reports.
    expect(result.text).toContain('Tried ../escaped-acp.txt: the write was refused (');
    expect(result.text).toContain(
      `[claw refused 1 file access(es) by "tester": write ../escaped-acp.txt: ../escaped-acp.txt is outside the workspace and the allowed folders (tools.fsRoots). Use a path inside ${workspace}.]`,
    );
    expect(node.lastTool).toBe('refused: write ../escaped-acp.txt');
    await waitFor(
      'the parent answer',
      async () => assistantTexts(await entriesOf(gateway.core, PARENT)).includes('The external agent reported back.') || undefined,
    );
  });
});
