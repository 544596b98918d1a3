import { silentLogger } from '../../source/config/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../source/config/index.js';
import { createCore, EventBus, type Core } from '../../source/core/index.js';
import { Assembly } from '../../source/core/assembly.js';
import { makeTempState, type TempState } from '../support/temp-state.js';

let state: TempState | undefined;
let core: Core | undefined;

afterEach(async () => {
  await core?.stop();
  state?.cleanup();
  core = state = undefined;
});

describe('the composition root builds in dependency order', () => {
  it('hands every part only parts built before it, and builds each once', async () => {
    state = makeTempState();
    core = await createCore({ config: loadConfig(state.paths.config), paths: state.paths, log: silentLogger, events: new EventBus(10), env: {} });
    const order = core.construction.map((step) => step.part);
    expect(new Set(order).size).toBe(order.length);
    core.construction.forEach((step, index) => {
      for (const use of step.uses) expect(order.indexOf(use), `${step.part} uses ${use}`).toBeGreaterThanOrEqual(0);
      for (const use of step.uses) expect(order.indexOf(use), `${step.part} uses ${use}`).toBeLessThan(index);
    });
    // The ports come after everything they expose; services get them, never the class.
    expect(order.indexOf('ports')).toBeGreaterThan(order.indexOf('inbound'));
    expect(order.indexOf('ports')).toBeGreaterThan(order.indexOf('lanes'));
  });

  it('refuses a part built before what it is handed', () => {
    const parts = new Assembly();
    parts.add('config', [], () => 1);
    expect(() => parts.add('lanes', ['config', 'sessions'], () => 2)).toThrow(/builds "lanes" before "sessions"/);
    expect(() => parts.add('config', [], () => 3)).toThrow(/twice/);
    expect(parts.order.map((step) => step.part)).toEqual(['config']);
  });
});
