// What deciding by principal costs: per turn, the tool list for the owner and
// for a contact (the profile layer added to the policy pipeline), and the
// principal of a message and of a turn; per tool call, the allowed-set check.
// Run after `npm run build`: node bench/principals.mjs. Prints one JSON object.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { configSchema, statePaths } from '../dist/config/index.js';
import { leastTrusted, principalKind } from '../dist/protocol/index.js';
import { principalOf } from '../dist/queue/index.js';
import { createToolsRuntime, policyLayers } from '../dist/tools/index.js';

const dir = mkdtempSync(join(tmpdir(), 'claw-bench-principals-'));
const config = configSchema.parse({});
const runtime = createToolsRuntime({ config, paths: statePaths(dir), env: {} });
const N = 20_000;

function perCall(fn, n = N) {
  for (let i = 0; i < 1000; i += 1) fn(i);
  const start = performance.now();
  for (let i = 0; i < n; i += 1) fn(i);
  return (performance.now() - start) / n;
}

const toolsFor = (kind) => runtime.registry.effective(policyLayers(config.tools, { agentId: 'main', sessionType: 'direct', principalKind: kind }));
const withoutPrincipal = perCall(() => runtime.registry.effective(policyLayers(config.tools, { agentId: 'main', sessionType: 'direct' })));
const owner = perCall(() => toolsFor('owner'));
const contact = perCall(() => toolsFor('contact'));
const message = { channel: 'telegram', peer: { kind: 'group', id: '-100' }, untrusted: true };
const principal = perCall(() => principalKind(principalOf(message)));
const turn = perCall(() => leastTrusted(['owner', 'contact', 'cron:nightly']));
const allowed = new Set(toolsFor('contact').map((tool) => tool.name));
const check = perCall((i) => allowed.has(i % 2 ? 'read' : 'skill'), 1_000_000);
await runtime.close();
rmSync(dir, { recursive: true, force: true });

const ms = (value) => Number(value.toFixed(5));
console.log(
  JSON.stringify({
    bench: 'principals',
    tools_per_turn_ms: { without_principal: ms(withoutPrincipal), owner: ms(owner), contact: ms(contact) },
    profile_layer_added_ms: ms(Math.max(owner, contact) - withoutPrincipal),
    principal_of_message_ms: ms(principal),
    least_trusted_of_turn_ms: ms(turn),
    per_tool_call_check_ms: ms(check),
    tools: { owner: toolsFor('owner').length, contact: toolsFor('contact').length },
    target_per_tool_call_ms: 0.1,
  }),
);
