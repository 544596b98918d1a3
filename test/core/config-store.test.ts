import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, silentLogger, systemClock, writeRawConfig } from '../../source/config/index.js';
import { ConfigStore } from '../../source/core/config-store.js';
import type { ConfigStatus } from '../../source/protocol/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
let store: ConfigStore | undefined;
afterEach(() => {
  store?.close();
  state?.cleanup();
  store = state = undefined;
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 600));

describe('the live config', () => {
  it('tells clients once about a write the gateway applied itself (setup saves, then reloads at once); a real edit still reaches them', async () => {
    state = makeTempState();
    writeRawConfig(state.paths.config, {});
    store = new ConfigStore(loadConfig(state.paths.config), state.paths.config, silentLogger, systemClock);
    const told: ConfigStatus[] = [];
    store.watch((status) => told.push(status));

    writeRawConfig(state.paths.config, { agents: { defaults: { model: 'fake/m' } } });
    await store.reload();
    await settle();
    expect(told, JSON.stringify(told)).toEqual([]);
    expect(store.current.agents.defaults.model).toBe('fake/m');

    writeRawConfig(state.paths.config, { agents: { defaults: { model: 'fake/other' } } });
    await settle();
    expect(told).toHaveLength(1);
    expect(told[0]?.state).toBe('ok');
    expect(store.current.agents.defaults.model).toBe('fake/other');
  });
});
