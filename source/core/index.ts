export { createCore, Core, type CoreOptions } from './create-core.js';
export type { Service, ServiceHealth } from './service.js';
export { Lifecycle, type LifecycleEvents, type LifecycleEvent, type LifecycleListener, type LifecycleVerdict, type GatedEvent } from './lifecycle.js';
export type { InboundPort, AcceptResult } from './inbound-service.js';
export type { OutboundPort, OutboundReply, DeliveryResult, ChannelDelivery } from './outbound.js';
export { EventBus } from './event-bus.js';
export { modelHistory, agentTurnRunner, sessionAdapter } from './agent-turn-runner.js';
export type {
  CorePorts,
  TurnsPort,
  TurnEvents,
  TurnEventName,
  MessageOutcome,
  OutcomeListener,
  ConfigPort,
  SessionsPort,
  LanesPort,
  ToolsPort,
  ModelsPort,
  SystemEventsPort,
  WorkspacesPort,
  ClientsPort,
} from './ports.js';
