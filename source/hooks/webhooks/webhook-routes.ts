import type { Logger } from '../../config/index.js';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, HooksConfig, WebhookMapping } from '../../config/index.js';
import type { InboundPort } from '../../core/index.js';
import { BodyTooLarge, readBodyLimited } from './request-body.js';
import { RateLimiter } from './rate-limiter.js';
import { ReplayGuard } from './replay-guard.js';
import type { WebhookRunLog } from './run-log.js';
import { signatureProblem } from './signature.js';
import { renderTemplate } from './template.js';
import { agentRequest, describeIssues, wakeRequest } from './webhook-requests.js';
import { sameSecret } from './webhook-token.js';

type InboundMessage = Parameters<InboundPort['accept']>[0];

export const WEBHOOK_CHANNEL = 'webhook';
const PREFIX = '/hooks';
const QUERY_SECRETS = ['token', 'auth', 'access_token', 'key', 'secret', 'signature'];

export interface WebhookDeps {
  config(): HooksConfig;
  defaultAgentId(): string;
  inbound: InboundPort;
  clock: Clock;
  log: Logger;
  /** The webhook token (never the gateway token). */
  token(): string;
  runs: WebhookRunLog;
  /** Keeps a system event for the agent's next heartbeat (`/hooks/wake` mode next-heartbeat); on disk when it resolves. */
  queueSystemEvent(agentId: string, event: { id: string; text: string; source: string; at: number }): Promise<{ nextRunAt?: number; pending: number }>;
  /** Why a model ref cannot be used, or undefined when it can. */
  modelProblem(ref: string): string | undefined;
  /** The owners' own chats: where `/hooks/agent` may deliver when the operator named no targets. */
  ownerChats(): Array<{ channel: string; to: string }>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

interface Planned {
  route: string;
  sessionKey: string;
  text: string;
  deliverTo?: { channel: string; to: string };
  model?: string;
  timeoutSeconds?: number;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * The webhook half of hooks: `POST /hooks/wake`, `POST /hooks/agent`,
 * `POST /hooks/<mapping>` and `GET /hooks/runs/<runId>` on the gateway's port.
 * A request is answered 202 only once its message is in the inbound journal
 * on disk; every refusal names what to change.
 */
export class WebhookRoutes {
  readonly #limiter: RateLimiter;
  readonly #replays: ReplayGuard;

  constructor(private readonly deps: WebhookDeps) {
    this.#limiter = new RateLimiter(deps.clock);
    this.#replays = new ReplayGuard(deps.clock, () => deps.config().webhooks.signatureToleranceSeconds * 1000);
  }

  /** True when the path is a webhook route (answered here, also when refused). */
  handle(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (path !== PREFIX && !path.startsWith(`${PREFIX}/`)) return false;
    this.#serve(req, res, path.slice(PREFIX.length + 1)).catch((error: unknown) => {
      if (error instanceof Refusal) return send(res, error.status, { error: error.message }, error.headers);
      this.deps.log.error(`webhook ${path} failed: ${error instanceof Error ? error.message : String(error)}`);
      send(res, 500, { error: 'The gateway could not take this request; it was not accepted. Try again; the gateway log has the cause.' });
    });
    return true;
  }

  async #serve(req: IncomingMessage, res: ServerResponse, route: string): Promise<void> {
    const config = this.deps.config();
    const query = (req.url ?? '').split('?')[1];
    if (query !== undefined) {
      const keys = [...new URLSearchParams(query).keys()].map((key) => key.toLowerCase());
      if (keys.some((key) => QUERY_SECRETS.includes(key))) {
        // The URL holds a secret: it is not logged, only that it happened.
        this.deps.log.warn('refused a webhook with a token in its URL', { route, address: req.socket.remoteAddress ?? 'unknown' });
        throw new Refusal(
          400,
          'Tokens are never accepted in the URL (it ends up in logs and proxies). Send it as "Authorization: Bearer <token>" or "X-Claw-Token: <token>", and treat the one you sent as leaked: rotate it.',
        );
      }
    }
    if (!config.webhooks.enabled) throw new Refusal(404, 'Webhooks are off on this gateway; turn them on with hooks.webhooks.enabled in claw.json.');
    if (route.startsWith('runs/')) {
      if (req.method !== 'GET') throw new Refusal(405, 'Use GET to read a run.', { allow: 'GET' });
      this.#checkToken(req);
      return this.#serveRun(res, decodeURIComponent(route.slice(5)));
    }
    const mapping = route === 'wake' || route === 'agent' ? undefined : Object.entries(config.mappings).find(([, m]) => m.path === route);
    if (route !== 'wake' && route !== 'agent' && !mapping) {
      const known = ['wake', 'agent', ...Object.values(config.mappings).map((m) => m.path)];
      throw new Refusal(
        404,
        `No webhook route "/hooks/${route}". Routes here: ${known.map((p) => `/hooks/${p}`).join(', ')}; add others under hooks.mappings.`,
      );
    }
    if (req.method !== 'POST') throw new Refusal(405, `Use POST for /hooks/${route}.`, { allow: 'POST' });
    const signed = mapping?.[1].auth === 'signature';
    // Who is asking is settled before the body is read (a signature needs the body, so it comes after).
    if (!signed) this.#checkToken(req);
    const type = (header(req, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json')
      throw new Refusal(415, `The body must be JSON sent with "Content-Type: application/json" (got ${type ? `"${type}"` : 'none'}).`);
    const max = config.webhooks.maxBodyBytes;
    const declared = Number(header(req, 'content-length') ?? '0');
    if (declared > max)
      throw new Refusal(413, `The body is ${declared} bytes; the limit is ${max} (hooks.webhooks.maxBodyBytes). Send less, or a link to the rest.`, {
        connection: 'close',
      });
    let body: Buffer;
    try {
      body = await readBodyLimited(req, max);
    } catch (error) {
      if (error instanceof BodyTooLarge)
        throw new Refusal(413, `The body is over ${max} bytes (hooks.webhooks.maxBodyBytes). Send less, or a link to the rest.`, { connection: 'close' });
      throw error;
    }
    if (signed) this.#checkSignature(req, body, mapping[0], mapping[1]);
    // Counted only for senders that proved who they are, so strangers cannot spend a route's budget.
    const limitKey = mapping ? `mapping:${mapping[0]}` : route;
    const retryAfter = this.#limiter.take(limitKey, mapping ? mapping[1].rateLimitPerMinute : config.webhooks.rateLimitPerMinute);
    if (retryAfter !== undefined)
      throw new Refusal(429, `Too many requests on /hooks/${route}; try again in ${retryAfter} s (the limit is set by rateLimitPerMinute).`, {
        'retry-after': String(retryAfter),
      });
    let data: unknown;
    try {
      data = JSON.parse(body.toString('utf8'));
    } catch (error) {
      throw new Refusal(400, `The body is not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
    }
    // A signed request is one event, named by its signed webhook-id: an unsigned header must not make a replay look new.
    const key = signed ? header(req, 'webhook-id') : (header(req, 'idempotency-key') ?? header(req, 'webhook-id'));
    if (key !== undefined && (key.length === 0 || key.length > 200)) throw new Refusal(400, 'Idempotency-Key must be 1 to 200 characters.');
    const wake = route === 'wake' ? this.#parseWake(data) : undefined;
    if (wake?.mode === 'next-heartbeat') return this.#wakeLater(res, wake.text, key);
    const planned = wake ? this.#planWake(wake.text) : route === 'agent' ? this.#planAgent(data) : this.#planMapping(mapping![0], mapping![1], data);
    await this.#accept(res, planned, key);
  }

  #checkToken(req: IncomingMessage): void {
    const bearer = /^Bearer\s+(.+)$/i.exec(header(req, 'authorization') ?? '')?.[1]?.trim();
    const given = bearer ?? header(req, 'x-claw-token')?.trim();
    if (!given) throw new Refusal(401, 'Missing webhook token: send "Authorization: Bearer <token>" or "X-Claw-Token: <token>"; `claw hooks token` prints it.');
    if (!sameSecret(given, this.deps.token()))
      throw new Refusal(401, 'Wrong webhook token (the gateway token is not accepted here); `claw hooks token` prints the right one.');
  }

  #checkSignature(req: IncomingMessage, body: Buffer, name: string, mapping: WebhookMapping): void {
    const id = header(req, 'webhook-id');
    const problem = signatureProblem({
      secret: mapping.secret!,
      id,
      timestamp: header(req, 'webhook-timestamp'),
      signature: header(req, 'webhook-signature'),
      body,
      nowMs: this.deps.clock.now(),
      toleranceSeconds: this.deps.config().webhooks.signatureToleranceSeconds,
    });
    if (problem) throw new Refusal(401, problem);
    // The run log is on disk: an id seen before a restart is still a replay after it.
    const earlier = this.deps.runs.byMessage(`${name}:${id}`);
    if (!this.#replays.firstSight(`${name}\u0000${id}`) || earlier) {
      throw new Refusal(
        409,
        `webhook-id "${id}" was already received${earlier ? ` (run ${earlier.runId})` : ''}; a replayed request is not run again. Send a new webhook-id for a new event.`,
      );
    }
  }

  #parseWake(data: unknown): { text: string; mode: 'now' | 'next-heartbeat' } {
    const parsed = wakeRequest.safeParse(data);
    if (!parsed.success) throw new Refusal(400, `Bad /hooks/wake body: ${describeIssues(parsed.error)}. Send {"text": "...", "mode": "now"}.`);
    return parsed.data;
  }

  #planWake(text: string): Planned {
    return { route: 'wake', sessionKey: `agent:${this.deps.defaultAgentId()}:main`, text: `System event from a webhook: ${text}` };
  }

  /** mode next-heartbeat: the event waits (on disk) for the agent's next heartbeat, which tells the agent about it. */
  async #wakeLater(res: ServerResponse, text: string, key: string | undefined): Promise<void> {
    const agentId = this.deps.defaultAgentId();
    const eventId = `wake:${key ?? randomUUID()}`;
    let queued: { nextRunAt?: number; pending: number };
    try {
      queued = await this.deps.queueSystemEvent(agentId, { id: eventId, text, source: 'webhook', at: this.deps.clock.now() });
    } catch (error) {
      if (error instanceof Error && error.name === 'ScheduleError') throw new Refusal(409, error.message);
      throw error;
    }
    send(res, 202, {
      status: 'waiting',
      eventId,
      agentId,
      pending: queued.pending,
      ...(queued.nextRunAt !== undefined ? { nextHeartbeatAt: new Date(queued.nextRunAt).toISOString() } : {}),
      detail: 'The event is kept for the next heartbeat, which tells the agent; `claw heartbeat status` shows when that runs.',
    });
  }

  #planAgent(data: unknown): Planned {
    const parsed = agentRequest.safeParse(data);
    if (!parsed.success)
      throw new Refusal(
        400,
        `Bad /hooks/agent body: ${describeIssues(parsed.error)}. Send {"message": "..."} with optional agentId, sessionKey (hook:<id>), deliver, channel, to, model, timeoutSeconds.`,
      );
    const request = parsed.data;
    const agent = this.deps.defaultAgentId();
    if (request.agentId !== undefined && request.agentId !== agent) {
      throw new Refusal(
        400,
        `hook:<id> sessions run on the default agent "${agent}"; agentId "${request.agentId}" cannot be used here. Map a route for that agent under hooks.mappings with its own sessionKey.`,
      );
    }
    if (request.sessionKey !== undefined && !request.sessionKey.startsWith('hook:')) {
      throw new Refusal(
        400,
        `sessionKey must be a hook session ("hook:<id>"); "${request.sessionKey}" is not. Other sessions are reached through a mapping with allowSessionKeyPrefixes.`,
      );
    }
    const problem = request.model === undefined ? undefined : this.deps.modelProblem(request.model);
    if (problem) throw new Refusal(400, `model "${request.model}" cannot be used: ${problem}. \`claw models list\` shows the models this gateway has.`);
    return {
      route: 'agent',
      sessionKey: request.sessionKey ?? `hook:${randomUUID()}`,
      text: request.message,
      ...this.#callerTarget(request.deliver ?? false, request.channel, request.to),
      ...(request.model !== undefined ? { model: request.model } : {}),
      ...(request.timeoutSeconds !== undefined ? { timeoutSeconds: request.timeoutSeconds } : {}),
    };
  }

  #planMapping(name: string, mapping: WebhookMapping, data: unknown): Planned {
    const text = (mapping.template ? renderTemplate(mapping.template, data) : JSON.stringify(data, null, 2)).trim();
    if (!text) throw new Refusal(400, `The template of mapping "${name}" made an empty message from this body; check its {{field}} names against the payload.`);
    const posted = data !== null && typeof data === 'object' ? (data as Record<string, unknown>).sessionKey : undefined;
    let sessionKey = mapping.sessionKey ?? `hook:${name}`;
    if (typeof posted === 'string') {
      if (!mapping.allowSessionKeyPrefixes.some((prefix) => posted.startsWith(prefix))) {
        throw new Refusal(
          400,
          `sessionKey "${posted}" is not allowed on mapping "${name}"; allowed prefixes: ${mapping.allowSessionKeyPrefixes.join(', ') || 'none (set allowSessionKeyPrefixes)'}.`,
        );
      }
      sessionKey = posted;
    }
    return { route: name, sessionKey, text, ...this.#deliverTo(mapping.deliver, mapping.channel, mapping.to) };
  }

  /**
   * A delivery target the caller named: only one the operator allows
   * (`hooks.webhooks.allowedDeliveryTargets`, by default the owners' own
   * chats), so the webhook token cannot make the bot message anyone else.
   */
  #callerTarget(deliver: boolean, channel: string | undefined, to: string | undefined): { deliverTo?: { channel: string; to: string } } {
    const target = this.#deliverTo(deliver, channel, to);
    if (!target.deliverTo) return target;
    const configured = this.deps.config().webhooks.allowedDeliveryTargets;
    const allowed = configured.length > 0 ? configured : this.deps.ownerChats();
    if (!allowed.some((t) => t.channel === channel && t.to === to)) {
      throw new Refusal(
        403,
        `deliver to ${channel}:${to} is not allowed: /hooks/agent delivers only to hooks.webhooks.allowedDeliveryTargets (${configured.length > 0 ? 'as configured' : "by default the owners' own chats"}). Add {"channel": "${channel}", "to": "${to}"} there in claw.json, or map a route with its own target under hooks.mappings.`,
      );
    }
    return target;
  }

  #deliverTo(deliver: boolean, channel: string | undefined, to: string | undefined): { deliverTo?: { channel: string; to: string } } {
    if (!deliver) return {};
    if (!channel || !to) throw new Refusal(400, 'deliver needs a channel and a to (the chat to send the reply to).');
    return { deliverTo: { channel, to } };
  }

  async #accept(res: ServerResponse, planned: Planned, key: string | undefined): Promise<void> {
    const messageId = `${planned.route}:${key ?? randomUUID()}`;
    const known = this.deps.runs.byMessage(messageId);
    const now = this.deps.clock.now();
    if (!known)
      this.deps.runs.receiving({
        messageId,
        route: planned.route,
        sessionKey: planned.sessionKey,
        acceptedAt: now,
        ...(planned.deliverTo ? { deliverTo: planned.deliverTo } : {}),
      });
    const message: InboundMessage = {
      channel: WEBHOOK_CHANNEL,
      peer: { kind: 'direct', id: planned.route },
      sessionKey: planned.sessionKey,
      messageId,
      text: planned.text,
      senderId: `webhook:${planned.route}`,
      senderName: `webhook ${planned.route}`,
      ...(planned.model !== undefined ? { model: planned.model } : {}),
      ...(planned.timeoutSeconds !== undefined ? { timeoutSeconds: planned.timeoutSeconds } : {}),
    };
    let accepted;
    try {
      accepted = await this.deps.inbound.accept(message);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      if ((error as { code?: string }).code === 'bad_request') throw new Refusal(400, text);
      throw error;
    }
    if (accepted.status === 'duplicate') {
      return send(res, 200, {
        runId: accepted.runId,
        sessionKey: accepted.sessionKey,
        status: 'duplicate',
        detail: 'This Idempotency-Key was already accepted in the last 5 minutes; it is not run again.',
      });
    }
    this.deps.runs.accepted(messageId, accepted.runId);
    if (accepted.status === 'dropped') {
      return send(res, 403, { runId: accepted.runId, status: 'dropped', error: accepted.reason ?? 'The message was dropped by policy.' });
    }
    send(res, 202, { runId: accepted.runId, sessionKey: accepted.sessionKey, status: accepted.status });
  }

  #serveRun(res: ServerResponse, runId: string): void {
    const run = this.deps.runs.get(runId);
    if (!run || run.runId.startsWith('pending:')) throw new Refusal(404, `No webhook run "${runId}" is known here (runs are kept for the last 1000 requests).`);
    if (this.#returnsReply(run.route) || run.text === undefined) return send(res, 200, run);
    const { text: _reply, ...outcome } = run;
    send(res, 200, { ...outcome, note: `The reply stays in session ${run.sessionKey}; set returnReply on this route to get it here.` });
  }

  /** Whether a route's runs show the reply to whoever holds the webhook token. */
  #returnsReply(route: string): boolean {
    const hooks = this.deps.config();
    if (route === 'agent' || route === 'wake') return hooks.webhooks.returnReply;
    return hooks.mappings[route]?.returnReply ?? false;
  }
}
