import { readFileSync, readdirSync } from 'node:fs';
const dir = process.argv[2];
const file = readdirSync(dir).find(f => f.endsWith('.cpuprofile'));
const p = JSON.parse(readFileSync(dir + '/' + file, 'utf8'));
const byId = new Map(p.nodes.map(n => [n.id, n]));
const self = new Map();
const dt = p.timeDeltas; 
const counts = new Map();
p.samples.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
// aggregate self time by url
const byUrl = new Map();
for (const [id, t] of counts) { const n = byId.get(id); const u = n.callFrame.url || n.callFrame.functionName || '(native)'; byUrl.set(u, (byUrl.get(u) ?? 0) + t); }
const total = [...counts.values()].reduce((a,b)=>a+b,0);
console.log('total ms', (total/1000).toFixed(1));
for (const [u,t] of [...byUrl].sort((a,b)=>b[1]-a[1]).slice(0, +process.argv[3] || 25)) console.log((t/1000).toFixed(1).padStart(8), u);
