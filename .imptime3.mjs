import { execFileSync } from 'node:child_process';
for (const m of process.argv.slice(2)) {
  const times = [];
  for (let i = 0; i < 6; i++) {
    const out = execFileSync(process.execPath, ['-e', `const c=process.cpuUsage(); import(${JSON.stringify(m)}).then(()=>{const u=process.cpuUsage(c); console.log((u.user+u.system)/1000)})`], { cwd: '/work/main' });
    times.push(Number(out.toString()));
  }
  times.sort((a, b) => a - b);
  console.log(m, 'cpu min', times[0].toFixed(1), 'med', times[3].toFixed(1));
}
