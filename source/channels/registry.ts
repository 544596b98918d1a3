import type { AnyChannelAdapter } from './adapter.js';
import { discordAdapter } from './discord/adapter.js';
import { telegramAdapter } from './telegram/adapter.js';

/**
 * Every chat platform the gateway can run: a new channel is its folder plus
 * one line here. The host (`channel-host.ts`) knows none of them by name.
 */
export const CHANNEL_ADAPTERS: readonly AnyChannelAdapter[] = [telegramAdapter as unknown as AnyChannelAdapter, discordAdapter as unknown as AnyChannelAdapter];
