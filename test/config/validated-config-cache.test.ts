import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { validateConfig } from '../../source/config/index.js';
import { validatedConfigPath } from '../../source/config/validated-config-cache.js';
import { runCli } from '../support/cli-process.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;

afterEach(() => {
  state?.cleanup();
  state = undefined;
});

/** The effective config the bundle loads (`claw config get` prints all of it). */
async function effective(env: NodeJS.ProcessEnv): Promise<unknown> {
  const result = await runCli(['config', 'get'], env);
  if (result.code !== 0) throw new Error(`claw config get failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

describe('the bundle validates claw.json once per text and schema', () => {
  it('knows the defaults of an absent or empty claw.json without validating, and they are what validation gives', async () => {
    state = makeTempState();
    const defaults = validateConfig({}, 'test');
    expect(await effective(state.env)).toStrictEqual(defaults);
    writeFileSync(state.paths.config, '  \n');
    expect(await effective(state.env)).toStrictEqual(defaults);
    expect(existsSync(validatedConfigPath(state.paths.config))).toBe(false);
  });

  it('answers an unchanged file from the last validation, and validates again after any edit', async () => {
    state = makeTempState();
    const file = state.paths.config;
    const cache = validatedConfigPath(file);
    writeFileSync(file, JSON.stringify({ gateway: { port: 12345 } }));
    expect(await effective(state.env)).toMatchObject({ gateway: { port: 12345 } });
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(cache, 'utf8')).text).toBe(readFileSync(file, 'utf8'));

    // The kept answer is what the next load uses: a doctored one shows through...
    const kept = JSON.parse(readFileSync(cache, 'utf8'));
    kept.config.gateway.port = 23456;
    writeFileSync(cache, JSON.stringify(kept));
    expect(await effective(state.env)).toMatchObject({ gateway: { port: 23456 } });
    // ...until the file changes at all, even by a comment.
    writeFileSync(file, `// edited\n${JSON.stringify({ gateway: { port: 12345 } })}`);
    expect(await effective(state.env)).toMatchObject({ gateway: { port: 12345 } });

    // An invalid edit is refused, never answered from the last good one.
    writeFileSync(file, JSON.stringify({ gateway: { port: 'high' } }));
    const refused = await runCli(['config', 'get'], state.env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('gateway.port');
  });

  it('ignores a kept answer from another schema', async () => {
    state = makeTempState();
    const file = state.paths.config;
    writeFileSync(file, JSON.stringify({ gateway: { port: 12345 } }));
    await effective(state.env);
    const cache = validatedConfigPath(file);
    const kept = JSON.parse(readFileSync(cache, 'utf8'));
    writeFileSync(cache, JSON.stringify({ ...kept, schema: 'another build', config: { ...kept.config, gateway: { ...kept.config.gateway, port: 1 } } }));
    expect(await effective(state.env)).toMatchObject({ gateway: { port: 12345 } });
    expect(JSON.parse(readFileSync(cache, 'utf8')).schema).toBe(kept.schema);
  });
});
