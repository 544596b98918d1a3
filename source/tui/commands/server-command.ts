import type { CommandContext } from './types.js';

/** Runs a command on the gateway (which owns it) and shows its reply in the chat, under the echo `echoId` when there is one. */
export async function runOnGateway(text: string, { controller, store }: CommandContext, echoId?: string): Promise<void> {
  const key = store.getState().currentKey;
  const { reply } = await controller.call('commands.run', { sessionKey: key, text });
  controller.answer(echoId, { text: reply.trim() === '' ? `${text.split(' ')[0]} done.` : reply }, key);
}
