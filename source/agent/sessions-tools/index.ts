export { createSessionsTools } from './sessions-tools.js';
export { canSeeSession, mayReachAgent, unreachableAgent, type SessionsReach, type SessionsVisibility } from './visibility.js';
export { MAX_SEND_HOPS, SESSION_CHANNEL, sendMessageId, hopsOfMessageId, framedMessage } from './send-hops.js';
export { sessionStatus } from './session-status.js';
export type { SessionsToolsHost, SendInput, SendResult, SendReply, SessionModelInfo } from './host.js';
