// Context engines on a held-out, tool-heavy 300-turn conversation, through a real gateway and the fake
// OpenAI server (no model time). Prints one JSON object with, per configuration:
//  - tokensPerTurn: the estimated size of what each turn's model calls sent (mean, p95, last);
//  - earlyFact: whether a fact stated at turn 5 (no identifier in it, so compaction's mechanical
//    identifier keeping cannot save it) is in what is sent when turn 300 asks about it;
//  - summaries: summariser calls made.
// The fake summariser keeps only the required sections with generic lines: how much a real
// model's summary keeps of an early fact varies, the recall engine does not depend on it.
// Run: npx tsx bench/context-engines.ts [--turns N]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateTokens } from '../source/providers/index.js';
import { kindOf, KEY, recordEvents, route, turn } from '../test/context/context-gateway.js';
import { startFakeOpenAI } from '../test/support/fake-openai-server.js';
import type { RecordedRequest } from '../test/support/fake-llm-common.js';
import { startTestGateway } from '../test/support/gateway-harness.js';
import { makeTempState } from '../test/support/temp-state.js';

const argTurns = Number(process.argv[process.argv.indexOf('--turns') + 1]);
const TURNS = Number.isFinite(argTurns) && argTurns >= 10 ? argTurns : 300;
const FACT = 'the release train leaves on Thursdays after the design review';
const SUMMARY =
  '## Decisions\n- earlier steps were carried out as asked\n## Open TODOs\n- none\n## Constraints\n- none\n## Pending user asks\n- none\n## Exact identifiers\n- none';

const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
};

async function run(name: string, engine: string, pruning: boolean) {
  const llm = await startFakeOpenAI();
  const state = makeTempState('claw-bench-context-');
  const workspace = state.paths.workspace('main');
  mkdirSync(workspace, { recursive: true });
  for (let i = 0; i < 20; i += 1)
    writeFileSync(join(workspace, `report${i}.txt`), `${`row ${i}: status ok, latency nominal, checks passed\n`.repeat(60 + i * 10)}`);
  let step = 0;
  llm.setDefault(
    route({
      turn: (request) => {
        const last = (request.body.messages as Array<{ role: string }>).at(-1)!;
        if (last.role === 'tool') return { text: `Step ${step} done: the report looks fine.` };
        step += 1;
        return { text: '', toolCalls: [{ id: `c${step}`, name: 'read', arguments: { path: `report${step % 20}.txt` } }] };
      },
      flush: () => ({ text: 'NO_REPLY' }),
      summary: () => ({ text: SUMMARY }),
      'identifier-retry': () => ({ text: SUMMARY }),
    }),
  );
  const gateway = await startTestGateway({
    state,
    core: { env: process.env },
    config: {
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: { contextWindow: 32_000 } } } } },
      agents: { defaults: { model: 'fake/m', contextEngine: engine } },
      tools: { profile: 'minimal', allow: ['read'] },
      compaction: { reserveTokens: 6_000, reserveTokensFloor: 6_000, keepRecentTokens: 6_000, memoryFlush: { enabled: false } },
      context: { compaction: { previewSeconds: 0 }, pruning: { enabled: pruning } },
      // A bench makes hundreds of calls a minute on purpose.
      budgets: { runaway: { callsPerMinute: 1_000_000, tokensPerMinute: 1_000_000_000_000 } },
    },
  });
  try {
    const client = await gateway.connect();
    const events = recordEvents(client);
    const errors: string[] = [];
    client.on('chat', (payload) => {
      if (payload.state === 'error') errors.push(payload.message);
    });
    const started = Date.now();
    for (let i = 1; i <= TURNS; i += 1) {
      const text =
        i === 5
          ? `Please remember that ${FACT}. Also check report ${i}.`
          : i === TURNS
            ? 'When does the release train leave, and after which review?'
            : `Check report ${i} and tell me if anything changed since step ${i - 1}.`;
      await turn(client, events, text);
    }
    const turnRequests = llm.requests.filter((request: RecordedRequest) => kindOf(request) === 'turn');
    const sizes = turnRequests.map((request) => estimateTokens(JSON.stringify(request.body.messages)));
    const last = JSON.stringify(turnRequests.at(-1)!.body.messages);
    const list = await client.request('commands.run', { sessionKey: KEY, text: '/context list' });
    return {
      name,
      tokensPerCall: { mean: Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length), p95: percentile(sizes, 95), last: sizes.at(-1) },
      earlyFact: last.includes('Thursdays after the design review'),
      summaries: llm.requests.filter((request) => kindOf(request) === 'summary').length,
      seconds: Math.round((Date.now() - started) / 100) / 10,
      failedTurns: errors.length,
      ...(errors.length > 0 ? { firstError: errors[0] } : {}),
      notes: list.reply.split('\n').filter((line) => /^(pruned|recall)/.test(line)),
    };
  } finally {
    await gateway.stop();
    await llm.close();
    state.cleanup();
  }
}

const results = [];
results.push(await run('default, no pruning', 'default', false));
results.push(await run('default, pruning', 'default', true));
results.push(await run('recall', 'recall', true));
console.log(JSON.stringify({ turns: TURNS, window: 32_000, results }));
