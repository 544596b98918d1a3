import { execFileSync } from 'node:child_process';
const mods = process.argv.slice(2);
for (const m of mods) {
  const times = [];
  for (let i = 0; i < 8; i++) {
    const out = execFileSync(process.execPath, ['-e', `const t=performance.now(); import(${JSON.stringify(m)}).then(()=>console.log(performance.now()-t))`], { cwd: '/work/main' });
    times.push(Number(out.toString()));
  }
  times.sort((a, b) => a - b);
  console.log(m, 'min', times[0].toFixed(1), 'med', times[4].toFixed(1));
}
