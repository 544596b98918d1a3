import type { AgentEventPayload, ChatEventPayload } from '../protocol/index.js';
import type { TurnEmitter } from '../queue/index.js';
import type { EventBus } from './event-bus.js';
import type { Lifecycle } from './lifecycle.js';

/**
 * Where a turn's chat and agent events go: to clients (unless the turn runs in
 * the background), and its start and end to the lifecycle hooks.
 */
export function turnEmitter(events: EventBus, lifecycle: Lifecycle, turnEnded: (sessionKey: string) => void): TurnEmitter {
  // A background turn (heartbeat, cron system event) reaches no chat view: clients see it through the schedule events.
  return ((event: 'chat' | 'agent', payload: ChatEventPayload | AgentEventPayload, background?: boolean) => {
    if (event === 'chat') {
      if (!background) events.emit('chat', payload as ChatEventPayload);
      return;
    }
    const agent = payload as AgentEventPayload;
    if (!background) events.emit('agent', agent);
    if (agent.stream !== 'lifecycle') return;
    if (agent.phase === 'start') void lifecycle.emit('turn:start', { sessionKey: agent.sessionKey, runId: agent.runId });
    if (agent.phase === 'end' || agent.phase === 'error' || agent.phase === 'aborted') {
      turnEnded(agent.sessionKey);
      void lifecycle.emit('turn:end', { sessionKey: agent.sessionKey, runId: agent.runId, status: agent.phase });
    }
  }) as TurnEmitter;
}
