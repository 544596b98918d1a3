import { mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from '../../config/index.js';
import type { McpServerConfig } from './connection.js';

const INPUT = /\$\{input:([^}]+)\}/g;

/** The values the owner gave for `${input:ID}` (credentials/mcp-inputs.json, 0600). */
export function readMcpInputs(file: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

export function saveMcpInput(file: string, id: string, value: string): void {
  const inputs = { ...readMcpInputs(file), [id]: value };
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomicSync(file, `${JSON.stringify(inputs, null, 2)}\n`, 0o600);
}

/** Every `${input:ID}` a server's settings refer to. */
export function inputsUsed(config: McpServerConfig): string[] {
  return [...new Set([...JSON.stringify(config).matchAll(INPUT)].map((match) => match[1]!))];
}

/** KEY=VALUE lines (blank lines and `#` comments skipped, one pair of quotes removed), as VS Code's envFile. */
function readEnvFile(path: string): Record<string, string> {
  const file = path.startsWith('~/') ? `${homedir()}${path.slice(1)}` : path;
  const env: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match || line.trimStart().startsWith('#')) continue;
    env[match[1]!] = match[2]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return env;
}

/**
 * A server's settings as they are used to start it: `${input:ID}` replaced by
 * the stored value and `envFile` read under `env`. Throws with what to run
 * when an input has no value yet or the env file cannot be read.
 */
export function resolveServerConfig(name: string, config: McpServerConfig, inputsFile: string | undefined): McpServerConfig {
  const used = inputsUsed(config);
  let resolved = config;
  if (used.length > 0) {
    const values = inputsFile ? readMcpInputs(inputsFile) : {};
    const missing = used.filter((id) => values[id] === undefined);
    if (missing.length > 0)
      throw new Error(
        `needs ${missing.map((id) => `"${id}"`).join(', ')} (\`\${input:…}\`): run \`claw mcp inputs ${name}\` to give ${missing.length === 1 ? 'it' : 'them'}`,
      );
    resolved = JSON.parse(JSON.stringify(config).replace(INPUT, (_all, id: string) => JSON.stringify(values[id]).slice(1, -1))) as McpServerConfig;
  }
  if ('command' in resolved && resolved.envFile) {
    let fromFile: Record<string, string>;
    try {
      fromFile = readEnvFile(resolved.envFile);
    } catch (error) {
      throw new Error(`its envFile ${resolved.envFile} cannot be read (${error instanceof Error ? error.message : String(error)})`);
    }
    resolved = { ...resolved, env: { ...fromFile, ...resolved.env } };
  }
  return resolved;
}
