export {
  parseSessionKey,
  mainSessionKey,
  cronSessionKey,
  hookSessionKey,
  subagentSessionKey,
  directSessionKey,
  groupSessionKey,
  sessionKeyShapes,
  type ParsedSessionKey,
  type SessionKind,
  type DmScope,
  type DirectKeyInput,
} from './session-key.js';
export { resolveAgent, defaultAgentId, type Binding, type RouteSource, type AgentChoice, type MatchedBy, type PeerKind } from './bindings.js';
export { routeInbound, type Route, type RouteInput } from './route.js';
