// What an npm bin or `npx` puts in front of an agent: a node process that
// starts the real one with the same stdio and waits for it. It does not pass
// signals on, so ending only this process leaves the agent running, holding
// the pipes. Usage: node acp-launcher.mjs <node args of the agent…>
import { spawn } from 'node:child_process';

const child = spawn(process.execPath, process.argv.slice(2), { stdio: 'inherit' });
if (process.env.ACP_PID_FILE) {
  const { appendFileSync } = await import('node:fs');
  appendFileSync(process.env.ACP_PID_FILE, `${process.pid}\n`);
}
child.on('exit', (code) => process.exit(code ?? 1));
