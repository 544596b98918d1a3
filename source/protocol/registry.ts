import type { z } from 'zod';
import { methods } from './methods/index.js';
import { events } from './events/index.js';

export type Methods = typeof methods;
export type MethodName = keyof Methods & string;
export type ParamsOf<M extends MethodName> = z.input<Methods[M]['params']>;
export type ResultOf<M extends MethodName> = z.output<Methods[M]['result']>;

export type Events = typeof events;
export type EventName = keyof Events & string;
export type PayloadOf<E extends EventName> = z.output<Events[E]['payload']>;

export const methodNames = Object.keys(methods) as MethodName[];
export const eventNames = Object.keys(events) as EventName[];

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(methods, name);
}

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(events, name);
}

export { methods, events };
