import type { LifecycleEvent, LifecycleEvents } from '../core/index.js';
import { lifecycleEventNames } from '../protocol/index.js';

/** Every lifecycle event a hook may name in `events:` (the same list core emits). */
export const hookEvents = lifecycleEventNames satisfies readonly LifecycleEvent[];

// A compile error here means core emits an event hooks cannot subscribe to.
type Unlisted = Exclude<LifecycleEvent, (typeof hookEvents)[number]>;
const everyEventListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyEventListed;

export type HookEvent = LifecycleEvent;
export type HookPayload<E extends HookEvent = HookEvent> = LifecycleEvents[E];

/** Events whose handlers may stop the action (`{block: true, reason}` or exit 2). */
export const blockingEvents: ReadonlySet<HookEvent> = new Set(['tool:before', 'message:received']);

export function isHookEvent(name: string): name is HookEvent {
  return (hookEvents as readonly string[]).includes(name);
}
