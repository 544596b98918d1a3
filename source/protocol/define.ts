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

/** A spec as written: the schemas are built on first use, so a process pays only for the methods it meets. */
type Deferred<S, K extends keyof S> = Omit<S, K> & { [Key in K]: () => S[Key] };

/** A getter that builds its value once, on first read. */
function memo<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

export function defineMethod<P extends z.ZodType, R extends z.ZodType>(spec: Deferred<MethodSpec<P, R>, 'params' | 'result'>): MethodSpec<P, R> {
  const params = memo(spec.params);
  const result = memo(spec.result);
  return {
    name: spec.name,
    description: spec.description,
    scope: spec.scope,
    mutating: spec.mutating,
    get params() {
      return params();
    },
    get result() {
      return result();
    },
  };
}

export interface EventSpec<P extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  payload: P;
  /** Scope a client needs to receive the event. */
  scope: Scope;
}

export function defineEvent<P extends z.ZodType>(spec: Deferred<EventSpec<P>, 'payload'>): EventSpec<P> {
  const payload = memo(spec.payload);
  return {
    name: spec.name,
    description: spec.description,
    scope: spec.scope,
    get payload() {
      return payload();
    },
  };
}
