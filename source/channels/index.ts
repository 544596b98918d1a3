export type { InboundMessage, InboundSink, ChannelPlugin } from './inbound.js';
export { inboundFromChatSend, TUI_CHANNEL, type ChatSendInput } from './tui-channel.js';
export type { Channel, ChannelOutbound, ChannelReply, ChannelSendResult, ChannelStatus } from './channel.js';
export { ReconnectPolicy, type ReconnectPolicyOptions } from './reconnect.js';
