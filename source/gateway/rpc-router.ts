import type { Logger } from '../config/index.js';
import { ClawError, hasScope, isMethodName, methods, type RequestFrame, type ResponseFrame } from '../protocol/index.js';
import type { CallerInfo, HandlerTable, MethodHandler } from './module.js';
import { IdempotencyCache } from './idempotency-cache.js';

function describeIssues(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string {
  return error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.map(String).join('.') : 'params'}: ${issue.message}`).join('; ');
}

/** Validates each request against its method's schema and scope, then runs it. */
export class RpcRouter {
  private readonly handlers = new Map<string, MethodHandler<never>>();
  private readonly idempotency = new IdempotencyCache();

  constructor(private readonly log: Logger) {}

  register(table: HandlerTable): void {
    for (const [name, handler] of Object.entries(table)) {
      if (this.handlers.has(name)) throw new Error(`two modules serve the method ${name}`);
      this.handlers.set(name, handler as MethodHandler<never>);
    }
  }

  served(): string[] {
    return [...this.handlers.keys()];
  }

  async dispatch(frame: RequestFrame, caller: CallerInfo): Promise<ResponseFrame> {
    try {
      const payload = await this.call(frame, caller);
      return { type: 'res', id: frame.id, ok: true, payload: payload ?? null };
    } catch (error) {
      const clawError = error instanceof ClawError ? error : this.internal(frame.method, error);
      return { type: 'res', id: frame.id, ok: false, error: clawError.toShape() };
    }
  }

  private internal(method: string, error: unknown): ClawError {
    this.log.error(`method ${method} failed`, { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return new ClawError('internal', `${method} failed inside the gateway: ${error instanceof Error ? error.message : String(error)}. See the gateway log.`);
  }

  private async call(frame: RequestFrame, caller: CallerInfo): Promise<unknown> {
    const { method } = frame;
    if (method === 'connect') throw new ClawError('bad_request', 'Already connected: `connect` is only valid as the first request.');
    const handler = this.handlers.get(method);
    if (!isMethodName(method) || !handler) {
      throw new ClawError('not_found', `Unknown method "${method}". The hello reply lists the methods this gateway serves.`);
    }
    const spec = methods[method];
    if (!hasScope(caller.scopes, spec.scope)) {
      throw new ClawError('forbidden', `${method} needs the "${spec.scope}" scope; reconnect with it.`);
    }
    const parsed = spec.params.safeParse(frame.params);
    if (!parsed.success) {
      throw new ClawError('bad_request', `Invalid params for ${method}: ${describeIssues(parsed.error)}`);
    }
    const params = parsed.data as never;
    const key = spec.mutating ? idempotencyKeyOf(parsed.data) : undefined;
    if (key) return this.idempotency.run(`${method}\u0000${key}`, async () => handler(params, caller));
    return handler(params, caller);
  }
}

function idempotencyKeyOf(params: unknown): string | undefined {
  if (params && typeof params === 'object' && 'idempotencyKey' in params) {
    const key = (params as { idempotencyKey?: unknown }).idempotencyKey;
    if (typeof key === 'string' && key.length > 0) return key;
  }
  return undefined;
}
