import type { CommandContext } from './types.js';

/** Runs a command on the gateway (which owns it) and shows its reply in the chat. */
export async function runOnGateway(text: string, { controller, store }: CommandContext): Promise<void> {
  const { reply } = await controller.call('commands.run', { sessionKey: store.getState().currentKey, text });
  controller.notice(reply.trim() === '' ? `${text.split(' ')[0]} done.` : reply);
}
