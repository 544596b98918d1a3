import { z } from 'zod';
import { lazySchema } from '../../protocol/index.js';

const clockTime = lazySchema(() => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'a time of day as HH:MM, e.g. "08:00" (24:00 for end of day)'));

/** Where a heartbeat alert goes: nowhere, the session's own chat, or a channel peer. */
const heartbeatTarget = lazySchema(() =>
  z.union([
    z.enum(['none', 'last']),
    z.strictObject({
      channel: z.string().min(1),
      accountId: z.string().min(1).optional(),
      peer: z.strictObject({ kind: z.enum(['direct', 'group']), id: z.string().min(1) }),
    }),
  ]),
);

const heartbeatFields = () => ({
  /** Interval such as `30m`, `1h`; `0` turns the heartbeat off. */
  every: z.string().min(1),
  /** Outside these hours (in `timezone`, default UTC) a heartbeat makes no model call. */
  activeHours: z.strictObject({ start: clockTime, end: clockTime, timezone: z.string().min(1).optional() }),
  /** The message the agent gets on a heartbeat; HEARTBEAT.md's text follows it. */
  prompt: z.string().min(1),
  /** Session key the heartbeat runs in; default the agent's main session. */
  session: z.string().min(1),
  target: heartbeatTarget,
  /** Input + output tokens heartbeats may spend per agent per day; unset means no cap. */
  dailyTokenBudget: z.number().int().min(1),
  /** Model ref for heartbeat turns only (e.g. a cheap one); default the session's model. */
  model: z.string().min(1),
});

export const DEFAULT_HEARTBEAT_PROMPT =
  "Heartbeat: read the HEARTBEAT.md checklist below and act on anything that is due. If nothing needs the user's attention, call heartbeat_respond with notify:false (or reply HEARTBEAT_OK). To alert the user, call heartbeat_respond with notify:true and the text.";

/** `agents.defaults.heartbeat`. */
export const heartbeatDefaults = lazySchema(() => {
  const fields = heartbeatFields();
  return z.strictObject({
    every: fields.every.default('30m'),
    activeHours: fields.activeHours.optional(),
    prompt: fields.prompt.default(DEFAULT_HEARTBEAT_PROMPT),
    session: fields.session.optional(),
    target: fields.target.default('last'),
    dailyTokenBudget: fields.dailyTokenBudget.optional(),
    model: fields.model.optional(),
  });
});

/** `agents.list[].heartbeat`: any key replaces the default for that agent. */
export const heartbeatOverride = lazySchema(() => {
  const fields = heartbeatFields();
  return z.strictObject({
    every: fields.every.optional(),
    activeHours: fields.activeHours.optional(),
    prompt: fields.prompt.optional(),
    session: fields.session.optional(),
    target: fields.target.optional(),
    dailyTokenBudget: fields.dailyTokenBudget.optional(),
    model: fields.model.optional(),
  });
});

export type HeartbeatConfig = z.output<typeof heartbeatDefaults>;
