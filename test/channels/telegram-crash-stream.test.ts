import { afterEach, describe, expect, it } from 'vitest';
import { writeRawConfig } from '../../source/config/index.js';
import { startFakeOpenAI, type FakeLlmServer } from '../support/fake-openai-server.js';
import { startFakeTelegram, type FakeTelegram } from '../support/fake-telegram.js';
import { startGatewayChild, type GatewayChild } from '../support/gateway-child.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { alice, aliceChat, telegramConfig, TOKEN } from './telegram-harness.js';

let telegram: FakeTelegram | undefined;
let llm: FakeLlmServer | undefined;
let state: TempState | undefined;
let child: GatewayChild | undefined;
afterEach(async () => {
  await child?.kill9().catch(() => undefined);
  await telegram?.close();
  await llm?.close();
  state?.cleanup();
  child = telegram = llm = state = undefined;
});

describe('a streamed Telegram reply cut by kill -9', () => {
  it('the restart edits the half-written preview into the final reply instead of leaving it beside a new one', { timeout: 90_000 }, async () => {
    telegram = await startFakeTelegram({ token: TOKEN });
    llm = await startFakeOpenAI();
    state = makeTempState();
    writeRawConfig(state.paths.config, {
      ...telegramConfig(state, telegram, { dmPolicy: 'allowlist', allowFrom: [String(alice.id)] }),
      models: { providers: { fake: { api: 'openai', baseUrl: llm.baseUrl, models: { m: {} } } } },
      agents: { defaults: { model: 'fake/m' } },
    });
    // A slow stream: the preview is in the chat long before the reply ends.
    llm.reply({ text: `Here is the first part of a long answer. ${'More words follow here. '.repeat(40)}`, delayMs: 60, chunkSize: 12 });
    child = await startGatewayChild(state);
    telegram.pushMessage(aliceChat, alice, 'tell me everything');
    const preview = await telegram.waitFor((c) => c.method === 'sendMessage', 30_000);
    expect(String(preview.params.text)).toMatch(/^Here/);
    // The preview grows (edits), its note reaches the transcript file; then a kill mid-stream.
    await telegram.waitFor((c) => c.method === 'editMessageText', 30_000);
    await child.kill9();
    const previewId = telegram.calls.filter((c) => c.method === 'sendMessage').length;
    llm.reply({ text: 'The complete answer, written again after the restart.' });
    child = await startGatewayChild(state);
    const final = await telegram.waitFor((c) => c.method === 'editMessageText' && String(c.params.text).startsWith('The complete answer'), 30_000);
    expect(Number(final.params.chat_id)).toBe(alice.id);
    expect(final.params.message_id).toBeDefined();
    // No second message: the one preview is now the reply.
    const sent = telegram.calls.filter((c) => c.method === 'sendMessage');
    expect(sent).toHaveLength(previewId);
    expect(sent[0]).toBe(preview);
  });
});
