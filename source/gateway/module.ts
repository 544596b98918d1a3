import type { z } from 'zod';
import type { ClawConfig, StatePaths } from '../config/index.js';
import type { Methods, MethodName, ResultOf } from '../protocol/index.js';
import type { EventBus } from './event-bus.js';
import type { Logger } from './logger.js';

/** Who is calling: passed to every handler. */
export interface CallerInfo {
  connId: string;
  clientId: string;
  scopes: readonly string[];
  address: string;
}

export type MethodHandler<M extends MethodName> = (
  params: z.output<Methods[M]['params']>,
  caller: CallerInfo,
) => Promise<ResultOf<M>> | ResultOf<M>;

export type HandlerTable = { [M in MethodName]?: MethodHandler<M> };

export interface ModuleHealth {
  ok: boolean;
  detail?: string;
}

/**
 * A subsystem as the gateway sees it: the RPC methods it serves, what it adds
 * to the hello snapshot, a health check, and how it drains and closes.
 */
export interface GatewayModule {
  name: string;
  handlers: HandlerTable;
  snapshot?(): Record<string, unknown>;
  health?(): ModuleHealth;
  /** False while the module cannot take work it would acknowledge (e.g. the state dir refuses writes): `/readyz` says 503. */
  ready?(): boolean;
  /** Finish or checkpoint running work; must resolve by `deadline` (epoch ms). */
  drain?(deadline: number): Promise<void>;
  close?(): Promise<void>;
}

export interface ModuleContext {
  config: ClawConfig;
  paths: StatePaths;
  bus: EventBus;
  log: Logger;
  now: () => number;
}

export type ModuleFactory = (context: ModuleContext) => GatewayModule | Promise<GatewayModule>;
