export { SubagentsService } from './subagents-service.js';
export { SubagentNotFound } from './control.js';
export { SpawnError, type SpawnRequest, type SpawnAccepted } from './spawner.js';
export { ANNOUNCE_SKIP, RESULT_KIND } from './messages.js';
