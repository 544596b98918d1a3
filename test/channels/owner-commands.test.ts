import { afterEach, describe, expect, it } from 'vitest';
import { echoRunner } from '../../source/queue/index.js';
import { alice, aliceChat, bob, bobChat, sentTo, startTelegramRig, type TelegramRig } from './telegram-harness.js';

let rig: TelegramRig | undefined;
afterEach(async () => {
  await rig?.stop();
  rig = undefined;
});

describe("slash commands from a chat act with the sender's authority", () => {
  it('a second allowed sender is refused the schedule, pairing, agent and model commands, with the reason; the owner runs them; both may use the rest', async () => {
    rig = await startTelegramRig({
      account: { dmPolicy: 'allowlist', allowFrom: [String(alice.id), String(bob.id)] },
      config: { agents: { defaults: { heartbeat: { every: '30m' } } } },
      core: { runner: echoRunner },
    });
    const { telegram } = rig;
    const refusals = ['/cron', '/cron run nightly', '/heartbeat pause', '/pairing', '/agent', '/model openai/gpt-4o'];
    for (const text of refusals) telegram.pushMessage(bobChat, bob, text);
    await expect.poll(() => sentTo(telegram, bob.id).length, { timeout: 10_000 }).toBe(refusals.length);
    for (const [index, reply] of sentTo(telegram, bob.id).entries()) {
      expect(reply, refusals[index]).toMatch(/is for the owner of this assistant only/);
    }
    // Nothing happened on the owner's schedule.
    expect(rig.gateway.core.schedule.heartbeat.status().every((beat) => !beat.paused)).toBe(true);

    telegram.pushMessage(bobChat, bob, '/status');
    await expect.poll(() => sentTo(telegram, bob.id).length, { timeout: 10_000 }).toBe(refusals.length + 1);
    expect(sentTo(telegram, bob.id).at(-1)).not.toMatch(/for the owner/);

    telegram.pushMessage(aliceChat, alice, '/heartbeat pause');
    await expect.poll(() => sentTo(telegram, alice.id).at(-1), { timeout: 10_000 }).toMatch(/heartbeat of main paused/);
    expect(rig.gateway.core.schedule.heartbeat.status().every((beat) => beat.paused)).toBe(true);
  });
});
