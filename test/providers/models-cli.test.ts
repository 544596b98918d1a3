import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

const run = promisify(execFile);
// Needs `npm run build` first (the package's test script does it).
const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');

let state: TempState;
beforeEach(() => {
  state = makeTempState();
});
afterEach(() => state.cleanup());

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...state.env, OLLAMA_HOST: '127.0.0.1:9' };
  delete out.OPENAI_API_KEY;
  delete out.ANTHROPIC_API_KEY;
  return { ...out, ...extra };
}

describe('claw models list', () => {
  it('prints the catalogue, readiness and the default model', async () => {
    writeRawConfig(state.paths.config, {
      models: { providers: { local: { api: 'openai', baseUrl: 'http://127.0.0.1:1/v1', models: { 'qwen-7b': { contextWindow: 32_768, maxOutput: 4096 } } } } },
    });
    const { stdout } = await run(process.execPath, [cli, 'models', 'list'], { env: env({ ANTHROPIC_API_KEY: 'k' }) });
    expect(stdout).toMatch(/MODEL\s+CONTEXT\s+MAX OUT/);
    expect(stdout).toMatch(/\* local\/qwen-7b\s+33k\s+4\.1k\s+-\s+yes/);
    expect(stdout).toMatch(/anthropic\/claude-sonnet-4-5\s+200k\s+64k\s+\$3\/\$15\s+yes/);
    expect(stdout).toMatch(/openai\/gpt-4o\s+128k\s+16k\s+\$2\.5\/\$10\s+no key/);
    expect(stdout).toContain('default model: local/qwen-7b');
  });

  it('says exactly what to set when nothing is configured, and emits JSON on request', async () => {
    const { stdout } = await run(process.execPath, [cli, 'models', 'list'], { env: env({}) });
    expect(stdout).toContain('No model provider is configured');
    expect(stdout).toContain(join(state.dir, 'credentials', 'anthropic.json'));
    const json = await run(process.execPath, [cli, 'models', 'list', '--json'], { env: env({}) });
    const parsed = JSON.parse(json.stdout) as { default: string | null; models: { ref: string; ready: boolean }[] };
    expect(parsed.default).toBeNull();
    expect(parsed.models.some((m) => m.ref === 'openai/gpt-4.1' && !m.ready)).toBe(true);
  });
});
