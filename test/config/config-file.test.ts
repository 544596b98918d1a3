import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_GATEWAY_PORT, loadConfig, readRawConfig, writeFileAtomicSync, writeRawConfig } from '../../source/config/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState;

beforeEach(() => {
  state = makeTempState();
});

afterEach(() => {
  state.cleanup();
});

function loadText(text: string) {
  writeFileSync(state.paths.config, text);
  return loadConfig(state.paths.config);
}

function configError(text: string): string {
  try {
    loadText(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('claw.json', () => {
  it('applies defaults when the file is missing or empty', () => {
    expect(loadConfig(state.paths.config).gateway.port).toBe(DEFAULT_GATEWAY_PORT);
    expect(loadText('  \n').gateway.bind).toBe('127.0.0.1');
  });

  it('accepts comments and trailing commas', () => {
    const config = loadText(`{
      // the port people hand-edit
      "gateway": {
        /* block comment, with "quotes" and a , */
        "port": 19000,
        "bind": "127.0.0.1", // trailing
      },
    }`);
    expect(config.gateway.port).toBe(19000);
  });

  it('keeps comment-like text inside strings', () => {
    const config = loadText('{ "gateway": { "bind": "127.0.0.1" }, "$schema": "http://example.com//x/*y*/", }');
    expect(config.$schema).toBe('http://example.com//x/*y*/');
  });

  it('names the key, the expected value and the value found', () => {
    const message = configError('{ "gateway": { "port": "abc" } }');
    expect(message).toContain(state.paths.config);
    expect(message).toContain('gateway.port');
    expect(message).toMatch(/expected number/i);
    expect(message).toContain('found "abc"');
    expect(message).toContain('claw config set');
  });

  it('reports out-of-range values with the limit', () => {
    const message = configError('{ "gateway": { "port": 70000 } }');
    expect(message).toContain('gateway.port');
    expect(message).toContain('65535');
    expect(message).toContain('found 70000');
  });

  it('reports unknown keys with their full path', () => {
    expect(configError('{ "gateway": { "prot": 1 } }')).toContain('unknown key gateway.prot');
    expect(configError('{ "gatewya": {} }')).toContain('unknown key gatewya');
  });

  it('reports a syntax error with line and column', () => {
    const message = configError('{\n  "gateway": {\n    "port": 1 2\n  }\n}');
    expect(message).toMatch(/line 3, column \d+/);
    expect(message).toContain(`Fix the syntax of ${state.paths.config}`);
  });

  it('refuses a file that is not an object', () => {
    expect(configError('[1, 2]')).toContain('must hold a JSON object');
  });

  it('writes atomically: validated first, 0600, no temp files left', () => {
    writeRawConfig(state.paths.config, { gateway: { port: 18000 } });
    expect(readRawConfig(state.paths.config)).toEqual({ gateway: { port: 18000 } });
    expect(statSync(state.paths.config).mode & 0o777).toBe(0o600);
    expect(() => writeRawConfig(state.paths.config, { gateway: { port: -1 } })).toThrow(ConfigError);
    expect(readRawConfig(state.paths.config)).toEqual({ gateway: { port: 18000 } });
    for (let i = 0; i < 20; i += 1) writeFileAtomicSync(state.paths.config, `{"gateway":{"port":${18001 + i}}}`);
    expect(loadConfig(state.paths.config).gateway.port).toBe(18020);
    expect(readdirSync(state.dir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
