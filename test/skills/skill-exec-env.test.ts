import { mkdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/gateway-harness.js';
import { mainSessionContext } from '../support/tool-context.js';

let gateway: TestGateway | undefined;
afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the approval request');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('skills.entries.<name>.env', () => {
  it("reaches the agent's exec calls, and its value never reaches the model", async () => {
    gateway = await startTestGateway({ config: { skills: { entries: { 'claw-config': { env: { CLAW_SKILL_PROBE: 'probe-value-8c1f' } } } } }, core: {} });
    const { tools } = gateway.core;
    const workspaceDir = gateway.state.paths.workspace('main');
    mkdirSync(workspaceDir, { recursive: true });
    const context = mainSessionContext(tools, workspaceDir);
    const run = tools.registry.invoke('exec', { command: 'printenv CLAW_SKILL_PROBE' }, context);
    await until(() => tools.inbox.list('pending').length > 0);
    const [request] = tools.inbox.list('pending');
    // The operator's env is not part of what the model asks for, so the request does not show it.
    expect(request!.command).not.toContain('probe-value-8c1f');
    tools.inbox.resolve(request!.id, 'once', 'test');
    const result = await run;
    expect(result.isError).toBe(false);
    expect(result.content).toContain('[redacted: skill env]');
    expect(result.content).not.toContain('probe-value-8c1f');
  });
});
