import { statePaths } from '../../config/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';

const marks = { ok: '✓', warn: '!', fail: '✗' } as const;

/** `claw doctor`: each check with its fix; exit 1 when any check fails. */
export const run: CommandRun = async ({ flags }) => {
  const { runDoctor } = await import('../../daemon/index.js');
  const checks = await runDoctor(statePaths());
  if (flags.json) printJson(checks);
  else {
    for (const check of checks) {
      process.stdout.write(`${marks[check.status]} ${check.name.padEnd(12)} ${check.detail}\n`);
      if (check.fix) process.stdout.write(`${' '.repeat(15)}fix: ${check.fix.replace(/\n/g, `\n${' '.repeat(20)}`)}\n`);
    }
  }
  return checks.some((c) => c.status === 'fail') ? 1 : 0;
};
