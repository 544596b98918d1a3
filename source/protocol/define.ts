import type { z } from 'zod';
import type { Scope } from './frames.js';

export interface MethodSpec<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  params: P;
  result: R;
  /** Scope a client needs to call the method. */
  scope: Scope;
  /** Mutating methods honour `idempotencyKey` in their params for 5 minutes. */
  mutating: boolean;
}

export function defineMethod<P extends z.ZodType, R extends z.ZodType>(spec: MethodSpec<P, R>): MethodSpec<P, R> {
  return spec;
}

export interface EventSpec<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  payload: P;
  /** Scope a client needs to receive the event. */
  scope: Scope;
}

export function defineEvent<P extends z.ZodType>(spec: EventSpec<P>): EventSpec<P> {
  return spec;
}
