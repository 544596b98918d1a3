import { commandTable } from './command-table.js';

const OPTIONS = [
  '  --json          machine-readable output where supported',
  '  --port <n>      gateway port (gateway run/start)',
  '  --help, -h      this help; `claw help COMMAND` or `claw COMMAND --help` for one command',
  '  --version, -v   the claw version',
];

const ENVIRONMENT = '  CLAW_STATE_DIR (default ~/.claw), CLAW_GATEWAY_PORT, CLAW_GATEWAY_TOKEN, OPENAI_API_KEY, ANTHROPIC_API_KEY';

/** `claw --help`: every command of the table with its summary. */
export function generalHelp(): string {
  const names = Object.keys(commandTable).filter((name) => name !== '');
  const width = Math.max(...names.map((n) => n.length));
  return [
    'Usage',
    '  claw                 open the TUI (starts the local gateway if needed)',
    '  claw <command> [options]',
    '',
    'Commands',
    ...names.map((name) => `  ${name.padEnd(width)}  ${commandTable[name]!.summary}`),
    '',
    'Options',
    ...OPTIONS,
    '',
    'Environment',
    ENVIRONMENT,
    '',
  ].join('\n');
}

/** `claw help NAME` / `claw NAME --help`; undefined for a name the table does not have. */
export function commandHelp(name: string): string | undefined {
  const entry = Object.hasOwn(commandTable, name) && name !== '' ? commandTable[name] : undefined;
  if (!entry) return undefined;
  return [`claw ${name}: ${entry.summary}`, '', 'Usage', ...entry.usage.map((line) => `  ${line}`), ''].join('\n');
}

/** Closest known command to a mistyped one (at most two edits away). */
export function suggestCommand(name: string): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const candidate of Object.keys(commandTable)) {
    if (candidate === '') continue;
    const distance = editDistance(name, candidate);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name: candidate, distance };
  }
  return best?.name;
}

export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}
