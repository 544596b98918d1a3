import { execFileSync } from 'node:child_process';
const cases = JSON.parse(process.argv[2]);
for (const [name, code, type] of cases) {
  const times = [];
  for (let i = 0; i < 7; i++) {
    const args = type === 'cjs' ? ['-e', code] : ['--input-type=module', '-e', code];
    const out = execFileSync(process.execPath, args, { cwd: '/work/main' });
    times.push(Number(out.toString().trim().split('\n').pop()));
  }
  times.sort((a, b) => a - b);
  console.log(name.padEnd(30), 'min', times[0].toFixed(1), 'med', times[3].toFixed(1));
}
