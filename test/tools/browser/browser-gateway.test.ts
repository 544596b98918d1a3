import { afterEach, describe, expect, it } from 'vitest';
import { decideTools, policyLayers } from '../../../source/tools/index.js';
import { startBrowserFixture, type BrowserFixture } from '../../support/browser-fixture.js';
import { startTestGateway, type TestGateway } from '../../support/gateway-harness.js';
import { mainSessionContext } from '../../support/tool-context.js';

let gateway: TestGateway | undefined;
let fixture: BrowserFixture | undefined;

afterEach(async () => {
  await gateway?.stop();
  await fixture?.close();
  gateway = fixture = undefined;
});

describe('the browser in a running gateway', () => {
  it('is a service: the tool is offered to the owner, Chromium starts at the first call, and clients see the session tabs', async () => {
    fixture = await startBrowserFixture();
    gateway = await startTestGateway({ config: { tools: { web: { allowPrivate: ['127.0.0.1'] } } }, core: {} });
    const client = await gateway.connect();
    const catalog = await client.request('tools.catalog', {});
    expect(catalog.tools.find((tool) => tool.name === 'browser')).toMatchObject({ group: 'web', risk: 'high' });
    const effective = await client.request('tools.effective', { sessionKey: 'agent:main:main' });
    expect(effective.tools.find((tool) => tool.name === 'browser')?.allowed).toBe(true);

    const tabs: unknown[] = [];
    client.on('browser.tabs', (payload) => tabs.push(payload));
    const context = mainSessionContext(gateway.core.tools, gateway.state.paths.workspace('main'));
    const result = await gateway.core.tools.registry.invoke('browser', { action: 'navigate', url: `${fixture.site}/next` }, context);
    expect(result.isError, result.content).toBe(false);
    for (let i = 0; i < 100 && tabs.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    const expected = { agentId: 'main', sessionKey: 'agent:main:main', tabs: [{ id: 't1', url: `${fixture.site}/next`, current: true }] };
    expect(tabs.at(-1)).toEqual(expected);
    // A client that attaches later finds them in its hello snapshot.
    const late = await gateway.connect();
    expect((late.hello?.snapshot as { browserTabs?: unknown } | undefined)?.browserTabs).toEqual([expected]);
  }, 60_000);

  it('is not offered when tools.browser.enabled is false', async () => {
    gateway = await startTestGateway({ config: { tools: { browser: { enabled: false } } }, core: {} });
    const client = await gateway.connect();
    const catalog = await client.request('tools.catalog', {});
    expect(catalog.tools.map((tool) => tool.name)).not.toContain('browser');
  });
});

describe('who gets the browser', () => {
  it('the owner by default; a contact, a group member and a webhook do not', () => {
    const tools = [{ name: 'browser', group: 'web' as const }];
    const decide = (principalKind: string) => decideTools(tools, policyLayers({}, { agentId: 'main', sessionType: 'direct', principalKind }))[0]!;
    expect(decide('owner').allowed).toBe(true);
    for (const kind of ['contact', 'group-member', 'webhook']) expect(decide(kind).allowed, kind).toBe(false);
  });
});
