import type { AgentHooks } from '../agent/index.js';
import type { Lifecycle } from './lifecycle.js';

/** The agent's hook interface, answered by the lifecycle (the agent is below core and never sees it). */
export function agentHooks(lifecycle: Lifecycle): AgentHooks {
  return {
    beforeTool: (call) => lifecycle.gate('tool:before', call),
    afterTool: (call) => void lifecycle.emit('tool:after', call),
    bootstrap: (session) => lifecycle.bootstrapText(session),
    compaction: (phase, info) =>
      void (phase === 'before' ? lifecycle.emit('session:compact:before', { sessionKey: info.sessionKey }) : lifecycle.emit('session:compact:after', info)),
  };
}
