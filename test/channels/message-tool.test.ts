import { afterEach, describe, expect, it } from 'vitest';
import type { Core } from '../../source/core/index.js';
import type { TurnContext, TurnOutcome, TurnRunner } from '../../source/queue/index.js';
import { policyLayers } from '../../source/tools/index.js';
import { alice, aliceChat, sentTo, startTelegramRig, type TelegramRig } from './telegram-harness.js';

let rig: TelegramRig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

/** A turn that calls the real `message` tool with the given arguments, then answers `reply`. */
function toolRunner(get: () => Core, args: Record<string, unknown>, reply: string, results: string[]): TurnRunner {
  return {
    async run(turn: TurnContext): Promise<TurnOutcome> {
      const core = get();
      const tool = core.tools.registry.get('message')!;
      const result = await tool.execute(args, {
        agentId: turn.agentId,
        sessionKey: turn.sessionKey,
        sessionType: 'direct',
        workspaceDir: core.paths.workspace('main'),
        signal: turn.signal,
        onUpdate: () => undefined,
        approvals: core.tools.inbox.gate(turn.agentId, turn.sessionKey),
      });
      results.push(`${result.isError ? 'error' : 'ok'}: ${result.content}`);
      turn.session.append({ type: 'message', role: 'assistant', content: [{ type: 'text', text: reply }], stopReason: 'stop' });
      return { status: 'replied', text: reply };
    },
  };
}

describe('the message tool', () => {
  it('a send to the chat the turn answers is not sent a second time by the final reply', async () => {
    const results: string[] = [];
    rig = await startTelegramRig({
      account: { dmPolicy: 'open' },
      core: { runner: toolRunner(() => rig!.gateway.core, { action: 'send', text: 'Here it is.' }, 'Here it is.', results) },
    });
    rig.telegram.pushMessage(aliceChat, alice, 'send me it');
    await expect.poll(() => results.length, { timeout: 5000 }).toBe(1);
    expect(results[0]).toMatch(/^ok: Sent on telegram:default chat 4001 \(message \d+\)\.$/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sentTo(rig.telegram, alice.id)).toEqual(['Here it is.']);
  });

  it('unknown targets and channels fail with the known ones', async () => {
    const results: string[] = [];
    const args = [
      { action: 'send', to: '999', text: 'hi' },
      { action: 'send', channel: 'slack', text: 'hi' },
      { action: 'reply', text: 'no id' },
    ];
    let index = 0;
    rig = await startTelegramRig({
      account: { dmPolicy: 'open', allowFrom: ['4005'] },
      config: { queue: { mode: 'followup', debounceMs: 0 } },
      core: { runner: { run: (turn) => toolRunner(() => rig!.gateway.core, args[index++]!, 'done', results).run(turn) } },
    });
    for (const text of ['a', 'b', 'c']) rig.telegram.pushMessage(aliceChat, alice, text);
    await expect.poll(() => results.length, { timeout: 5000 }).toBe(3);
    expect(results[0]).toBe('error: Unknown target "999" on telegram:default. Known chats: 4005, 4001.');
    expect(results[1]).toBe('error: Unknown channel "slack". Known: telegram:default.');
    expect(results[2]).toMatch(/^error: action "reply" needs replyTo/);
  });

  it('is not offered to subagents unless the policy says so', async () => {
    rig = await startTelegramRig();
    const { core } = rig.gateway;
    const visible = (sessionType: string) =>
      core.tools.registry.decisions(policyLayers(core.config.current.tools, { agentId: 'main', sessionType })).find((d) => d.name === 'message')?.allowed;
    expect(visible('direct')).toBe(true);
    expect(visible('subagent')).toBe(false);
  });
});
