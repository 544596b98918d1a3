/**
 * Every lifecycle event a hook (HOOK.md or a plugin's `ctx.hooks.on`) may
 * name: the same list core emits, declared once for both.
 */
export const lifecycleEventNames = [
  'gateway:startup',
  'gateway:shutdown',
  'command:new',
  'command:reset',
  'command:stop',
  'session:compact:before',
  'session:compact:after',
  'agent:bootstrap',
  'message:received',
  'message:sent',
  'turn:start',
  'turn:end',
  'tool:before',
  'tool:after',
] as const;

export type LifecycleEventName = (typeof lifecycleEventNames)[number];
