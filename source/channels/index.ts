export type { InboundMessage, InboundSink, ChannelPlugin } from './inbound.js';
export { inboundFromChatSend, TUI_CHANNEL, type ChatSendInput } from './tui-channel.js';
