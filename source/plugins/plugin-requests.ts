import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from '../config/index.js';
import { guardedStream, type GuardedStream } from '../tools/index.js';
import type { PluginPaths } from './store.js';

/** A plugin's whole key-value store; more is refused with a message saying so. */
const STORAGE_LIMIT_BYTES = 1024 * 1024;
const FETCH_LIMIT_BYTES = 10 * 1024 * 1024;

export interface PluginRequestsOptions {
  id: string;
  paths: PluginPaths;
  /** The hosts the owner granted (`permissions.net`): `api.example.com`, `*.example.com`, optionally with `:port`. */
  net: readonly string[];
  allowPrivate(): readonly string[];
  timeoutMs: number;
  /** Sends a notification to the plugin process (a response body's chunks). */
  notify(method: string, params: Record<string, unknown>): void;
  /** A response still streaming: the call waiting on it is not hung. */
  alive(): void;
}

export interface PluginRequests {
  handle(method: string, params: Record<string, unknown>): Promise<unknown>;
  /** The plugin stopped reading a response body. */
  cancel(stream: string): void;
  /** The process ended: every open response is closed. */
  closeAll(): void;
}

/** Whether `url`'s host (and port) is one of the granted patterns. */
function hostGranted(url: URL, granted: readonly string[]): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return granted.some((pattern) => {
    const [name = '', wantPort] = pattern.toLowerCase().split(/:(?=\d+$)/);
    if (wantPort && wantPort !== port) return false;
    return name.startsWith('*.') ? host.endsWith(name.slice(1)) : host === name;
  });
}

/**
 * What a plugin process may ask of claw: its own storage, and HTTP to the
 * hosts it was granted — resolved, checked against `tools.web.allowPrivate`
 * and pinned here, since the sandbox gives it no network of its own. A
 * response comes back as its status and headers, then its body as
 * `fetch.chunk` notifications and one `fetch.end`, so a model's stream
 * reaches the plugin as it arrives.
 */
export function pluginRequests(options: PluginRequestsOptions): PluginRequests {
  const file = options.paths.storage(options.id);
  const load = (): Record<string, unknown> => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      return {};
    }
  };
  const save = (data: Record<string, unknown>): void => {
    const text = JSON.stringify(data);
    if (Buffer.byteLength(text) > STORAGE_LIMIT_BYTES) throw new Error(`storage is limited to ${STORAGE_LIMIT_BYTES / 1024} KB per plugin; delete keys first.`);
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileAtomicSync(file, text);
  };
  const key = (params: Record<string, unknown>): string => {
    if (typeof params.key !== 'string' || params.key.length === 0) throw new Error('storage keys are non-empty strings.');
    return params.key;
  };
  const streams = new Map<string, GuardedStream>();
  let nextStream = 1;
  const pump = async (id: string, stream: GuardedStream): Promise<void> => {
    let total = 0;
    try {
      for await (const chunk of stream.body) {
        if (!streams.has(id)) return;
        total += chunk.length;
        if (total > FETCH_LIMIT_BYTES) throw new Error(`the response is over ${FETCH_LIMIT_BYTES / 1024 / 1024} MB; claw stopped reading it.`);
        options.notify('fetch.chunk', { stream: id, data: chunk.toString('base64') });
        options.alive();
      }
      if (streams.has(id)) options.notify('fetch.end', { stream: id });
    } catch (error) {
      if (streams.has(id)) options.notify('fetch.end', { stream: id, error: (error as Error).message });
    } finally {
      streams.delete(id);
      stream.cancel();
    }
  };
  const fetchFor = async (params: Record<string, unknown>): Promise<unknown> => {
    const method = typeof params.method === 'string' ? params.method.toUpperCase() : 'GET';
    const headers = (params.headers && typeof params.headers === 'object' ? params.headers : {}) as Record<string, string>;
    const body = typeof params.body === 'string' ? Buffer.from(params.body, 'base64') : undefined;
    const stream = await guardedStream(String(params.url), {
      allowPrivate: options.allowPrivate(),
      maxBytes: FETCH_LIMIT_BYTES,
      timeoutMs: options.timeoutMs,
      ...(method === 'GET' && !body && Object.keys(headers).length === 0 ? {} : { request: { method, headers, ...(body ? { body } : {}) } }),
      refuseHost: (url) =>
        hostGranted(url, options.net)
          ? undefined
          : `plugin ${options.id} may reach only ${options.net.length > 0 ? options.net.join(', ') : 'no host'} (permissions.net), not ${url.host}.`,
    });
    const id = `s${nextStream++}`;
    streams.set(id, stream);
    // After the answer is written: the plugin knows the stream before its first chunk.
    setImmediate(() => void pump(id, stream));
    return { status: stream.status, headers: stream.headers, stream: id };
  };
  return {
    async handle(method, params) {
      switch (method) {
        case 'storage.get':
          return { value: load()[key(params)] ?? null };
        case 'storage.set': {
          const data = load();
          data[key(params)] = params.value ?? null;
          save(data);
          return {};
        }
        case 'storage.delete': {
          const data = load();
          delete data[key(params)];
          save(data);
          return {};
        }
        case 'storage.keys':
          return { keys: Object.keys(load()) };
        case 'fetch':
          return fetchFor(params);
        default:
          throw new Error(`claw has no method "${method}" for plugins.`);
      }
    },
    cancel(stream) {
      const open = streams.get(stream);
      streams.delete(stream);
      open?.cancel();
    },
    closeAll() {
      for (const open of streams.values()) open.cancel();
      streams.clear();
    },
  };
}
