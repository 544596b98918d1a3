import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { GatewaySnapshot, Methods, MethodName, ResultOf } from '../protocol/index.js';

/** Who is calling: passed to every handler. */
export interface CallerInfo {
  connId: string;
  clientId: string;
  scopes: readonly string[];
  address: string;
}

export type MethodHandler<M extends MethodName> = (params: z.output<Methods[M]['params']>, caller: CallerInfo) => Promise<ResultOf<M>> | ResultOf<M>;

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
  snapshot?(): GatewaySnapshot;
  health?(): ModuleHealth;
  /** Several named checks at once (the core reports one per service). */
  healthChecks?(): Record<string, ModuleHealth>;
  /** False while the module cannot take work it would acknowledge (e.g. the state dir refuses writes): `/readyz` says 503. */
  ready?(): boolean;
  /**
   * Called once the gateway listens (on `port`) and `/readyz` can say ready:
   * background start-up work begins here, and the promise says when it is done.
   */
  listening?(port: number): Promise<void> | void;
  /** Finish or checkpoint running work; must resolve by `deadline` (epoch ms). */
  drain?(deadline: number, reason: string): Promise<void>;
  close?(): Promise<void>;
  /** Answers an HTTP request (e.g. `/hooks/*`) and returns true, or false to let the next module or the 404 have it. */
  http?(req: IncomingMessage, res: ServerResponse, path: string): boolean;
}
