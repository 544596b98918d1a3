export { SubagentsService, SubagentNotFound } from './subagents-service.js';
export { SpawnError, type SpawnRequest, type SpawnAccepted } from './spawner.js';
export { ANNOUNCE_SKIP, RESULT_KIND } from './messages.js';
