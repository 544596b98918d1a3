// tool_search over 500 deferred MCP tools: select (what a model call sends)
// and search (by what the model asks for), p50/p95 of 2,000 runs each.
// Run after `npm run build`: node bench/tool-search.mjs — prints one JSON object.
import { performance } from 'node:perf_hooks';
import { DeferredTools } from '../dist/agent/tool-search.js';

const verbs = ['list', 'get', 'create', 'delete', 'update', 'rotate', 'query', 'export', 'scan', 'watch'];
const things = ['storage account', 'key vault', 'pod', 'issue', 'page', 'table', 'bucket', 'user', 'invoice', 'deployment'];
const tools = Array.from({ length: 500 }, (_, i) => ({
  name: `mcp__srv${i % 20}__${verbs[i % 10]}_${i}`,
  description: `${verbs[i % 10]} a ${things[Math.floor(i / 10) % 10]} (${'detail '.repeat(20)})`,
  parameters: { type: 'object', properties: { id: { type: 'string' } } },
}));
const deferred = new DeferredTools();
const limits = { api: 'openai', window: 128_000, deferOf: () => 'auto' };
const time = (fn) =>
  Array.from({ length: 2000 }, (_, i) => {
    const start = performance.now();
    fn(i);
    return performance.now() - start;
  }).sort((a, b) => a - b);
const at = (values, p) => Math.round(values[Math.floor((values.length - 1) * p)] * 1000) / 1000;
const select = time(() => deferred.select('s', tools, limits));
const search = time(() => deferred.search('s', 'rotate the storage account keys', 5));
process.stdout.write(
  `${JSON.stringify({ bench: 'tool-search', tools: tools.length, selectMs: { p50: at(select, 0.5), p95: at(select, 0.95) }, searchMs: { p50: at(search, 0.5), p95: at(search, 0.95), target: 5 } })}\n`,
);
