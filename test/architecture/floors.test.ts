import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { architectureViolations } from '../support/architecture.js';

const root = join(import.meta.dirname, '..', '..');

describe('the floor table of DESIGN.md holds in source/', () => {
  it('has no import past an index.ts, up a floor or across neighbours', () => {
    expect(architectureViolations(root)).toEqual([]);
  });

  it('catches each kind of violation planted in a copy of the tree', () => {
    const copy = mkdtempSync(join(tmpdir(), 'claw-arch-'));
    try {
      cpSync(join(root, 'source'), join(copy, 'source'), { recursive: true });
      const plant = (path: string, line: string): void => writeFileSync(join(copy, 'source', path), `${line}\n`);
      plant('queue/planted-up.ts', "import { AgentRuntime } from '../agent/index.js';");
      plant('memory/planted-inner.ts', "import { parseJsonc } from '../config/jsonc.js';");
      plant('tui/planted-server.ts', "import { GatewayServer } from '../gateway/index.js';");
      plant('channels/planted-sideways.ts', "import { x } from '../schedule/index.js';");
      plant('cli/planted-static.ts', "import { runGatewayDaemon } from '../daemon/index.js';");
      plant('cli/planted-entry.ts', "import { runGateway } from './gateway-run.js';");
      plant('channels/planted-type-ok.ts', "import type { CorePorts, Service } from '../core/index.js';");
      plant('schedule/planted-core.ts', "import type { Service, Core } from '../core/index.js';");
      plant('subagents/planted-core-alias.ts', "import { type Core as Root } from '../core/index.js';");
      const found = architectureViolations(copy).join('\n');
      expect(found).toMatch(/queue\/planted-up\.ts:1 .* agent\/ \(floor 4\) is above queue\/ \(floor 2\)/);
      expect(found).toMatch(/memory\/planted-inner\.ts:1 .* go through config\/index\.ts/);
      expect(found).toMatch(/tui\/planted-server\.ts:1 .* tui\/ may import only client, markdown, protocol/);
      expect(found).toMatch(/channels\/planted-sideways\.ts:1 .* neighbour on floor 5/);
      expect(found).toMatch(/cli\/planted-static\.ts:1 .* must not load daemon\/ at start-up/);
      expect(found).toMatch(/cli\/planted-entry\.ts:1 .* the daemon's entry may only be imported dynamically/);
      expect(found).not.toMatch(/planted-type-ok/);
      expect(found).toMatch(/schedule\/planted-core\.ts:1 names the Core class/);
      expect(found).toMatch(/subagents\/planted-core-alias\.ts:1 names the Core class/);
      // The daemon's entry itself may load it statically.
      expect(found).not.toMatch(/cli\/gateway-run\.ts/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
