// What failover's decision costs per model call: streamWithFailover around an
// in-process model that answers at once, against calling that model directly.
// Cases: a healthy chain; a chain whose first model and first key are cooling
// (the call is made by the second key of the fallback); and 200 unrelated
// cooldowns in the table. Run: npx tsx bench/failover-decision.ts — prints one JSON object.
import { performance } from 'node:perf_hooks';
import { Cooldowns, keyTarget, modelTarget } from '../source/providers/cooldowns.js';
import { defaultFailoverPolicy, type FailoverDeps, streamWithFailover } from '../source/providers/failover.js';
import type { AuthProfile, ProviderEvent, ResolvedModel, TurnRequest, WireRequest } from '../source/providers/types.js';
import { systemClock } from '../source/config/index.js';

const model = (ref: string): ResolvedModel => ({
  ref,
  provider: ref.slice(0, ref.indexOf('/')),
  id: ref.slice(ref.indexOf('/') + 1),
  api: 'openai',
  baseUrl: 'http://127.0.0.1:9',
  headers: {},
  contextWindow: 128_000,
  maxOutput: 8192,
  cost: { input: 0, output: 0 },
  reasoning: false,
  known: true,
});
const keys: AuthProfile[] = [
  { id: 'env:A', apiKey: 'sk-a' },
  { id: 'file:b', apiKey: 'sk-b' },
];
async function* answer(request: WireRequest): AsyncGenerator<ProviderEvent> {
  yield { type: 'done', stopReason: 'stop', content: [{ type: 'text', text: 'ok' }], usage: undefined, model: request.model.ref, profile: request.auth.id };
}
const request: TurnRequest = {
  model: 'pa/big',
  fallbacks: ['pa/small', 'pb/m'],
  system: '',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [],
  thinking: 'off',
};
const wire: WireRequest = {
  model: model('pa/big'),
  auth: keys[0]!,
  system: '',
  messages: request.messages,
  tools: [],
  thinking: 'off',
  maxOutputTokens: 8192,
  signal: undefined,
};

function deps(cooldowns: Cooldowns): FailoverDeps {
  return { resolve: model, profiles: () => keys, call: answer, cooldowns, clock: systemClock, random: Math.random, policy: defaultFailoverPolicy };
}

async function perCall(fn: () => AsyncIterable<ProviderEvent>, n = 20_000): Promise<number> {
  const once = async (): Promise<void> => {
    for await (const event of fn()) void event;
  };
  for (let i = 0; i < 2000; i += 1) await once();
  const start = performance.now();
  for (let i = 0; i < n; i += 1) await once();
  return (performance.now() - start) / n;
}

const healthy = new Cooldowns(systemClock);
const degraded = new Cooldowns(systemClock);
const reason = 'overloaded, HTTP 529: overloaded_error: Overloaded';
const hour = { durationMs: 3_600_000, escalate: true };
degraded.fail(modelTarget('pa/big'), 'overloaded', reason, hour);
degraded.fail(keyTarget('pa', keys[0]!), 'rate_limit', 'rate_limit, HTTP 429', hour);
const crowded = new Cooldowns(systemClock);
for (let i = 0; i < 200; i += 1) crowded.fail(modelTarget(`other/m${i}`), 'overloaded', reason, hour);

const direct = await perCall(() => answer(wire));
const round = (ms: number): number => Math.round(ms * 10_000) / 10_000;
const figures = {
  directMs: round(direct),
  healthyMs: round((await perCall(() => streamWithFailover(request, deps(healthy)))) - direct),
  coolingMs: round((await perCall(() => streamWithFailover(request, deps(degraded)))) - direct),
  crowdedTableMs: round((await perCall(() => streamWithFailover(request, deps(crowded)))) - direct),
  targetMs: 1,
};
process.stdout.write(`${JSON.stringify({ bench: 'failover-decision', perCallOverhead: figures })}\n`);
