import type { Clock, Logger, StatePaths } from '../config/index.js';
import { modelProblem, type Providers, type SpendGate } from '../providers/index.js';
import type { LaneQueue } from '../queue/index.js';
import type { ScheduleService } from '../schedule/index.js';
import type { SessionRegistry } from '../sessions/index.js';
import { confineCommand, type ToolsRuntime } from '../tools/index.js';
import type { AgentRuntime } from '../agent/index.js';
import type { CommandService } from './command-service.js';
import type { ConfigStore } from './config-store.js';
import type { EventBus } from './event-bus.js';
import type { InboundPort } from './inbound-service.js';
import type { Lifecycle } from './lifecycle.js';
import type { Outbound } from './outbound.js';
import type { CorePorts } from './ports.js';
import type { SessionsService } from './sessions-service.js';
import type { TurnHub } from './turns.js';

/** The parts the ports are views of, all built before them. */
export interface PortSources {
  inbound: InboundPort;
  outbound: Outbound;
  turns: TurnHub;
  registry: SessionRegistry;
  sessions: SessionsService;
  lanes: LaneQueue;
  tools: ToolsRuntime;
  commands: Pick<CommandService, 'list' | 'addSource'>;
  providers: Providers;
  schedule: ScheduleService;
  agent: AgentRuntime;
  lifecycle: Lifecycle;
  events: EventBus;
  store: ConfigStore;
  clock: Clock;
  log: Logger;
  paths: StatePaths;
  env: NodeJS.ProcessEnv;
  spend: SpendGate;
}

/** The narrow views services get in `start(ports)`: each one only what a service may use of its part. */
export function buildPorts(s: PortSources): CorePorts {
  const { registry, sessions, lanes, tools, providers, schedule, agent } = s;
  return {
    inbound: s.inbound,
    outbound: s.outbound,
    turns: s.turns,
    sessions: {
      open: registry.open.bind(registry),
      get: registry.get.bind(registry),
      patch: registry.patch.bind(registry),
      resolve: registry.resolve.bind(registry),
      setLineage: registry.setLineage.bind(registry),
      evictIdle: registry.evictIdle.bind(registry),
      openCount: registry.openCount.bind(registry),
      ensure: (key) => void sessions.ensure(key),
    },
    lanes: {
      abort: (key, runId) => lanes.abort(key, runId),
      info: (key) => lanes.laneInfo(key),
      running: () => lanes.snapshot().lanes.flatMap((lane) => (lane.runId ? [{ sessionKey: lane.key, runId: lane.runId }] : [])),
    },
    tools: {
      register: (tool) => tools.registry.register(tool),
      unregister: (name) => void tools.registry.unregister(name),
      approvals: tools.inbox,
      confine: (file, args, policy) => confineCommand(tools.sandbox, file, args, policy),
    },
    commands: { list: () => s.commands.list(), addSource: (source) => s.commands.addSource(source) },
    models: {
      resolve: (ref) => void providers.resolveModel(ref),
      problem: (ref) => modelProblem(providers, ref),
      plug: (provider) => providers.plug(provider),
    },
    spend: { exhausted: (charge) => s.spend.exhausted(charge) },
    systemEvents: { queue: (agentId, event, wakeNow) => schedule.queueSystemEvent(agentId, event, wakeNow) },
    workspaces: { dir: (agentId) => agent.workspaceDir(agentId) },
    lifecycle: s.lifecycle,
    clients: s.events,
    config: s.store,
    clock: s.clock,
    log: s.log,
    paths: s.paths,
    env: s.env,
  };
}
