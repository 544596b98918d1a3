import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileAtomicSync } from '../config/index.js';
import { guardedFetch } from '../tools/index.js';
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
}

/** Whether `url`'s host (and port) is one of the granted patterns. */
export function hostGranted(url: URL, granted: readonly string[]): boolean {
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
 * and pinned here, since the sandbox gives it no network of its own.
 */
export function pluginRequests(options: PluginRequestsOptions): (method: string, params: Record<string, unknown>) => Promise<unknown> {
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
  return async (method, params) => {
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
        return fetchFor(options, params);
      default:
        throw new Error(`claw has no method "${method}" for plugins.`);
    }
  };
}

async function fetchFor(options: PluginRequestsOptions, params: Record<string, unknown>): Promise<unknown> {
  const method = typeof params.method === 'string' ? params.method.toUpperCase() : 'GET';
  const headers = (params.headers && typeof params.headers === 'object' ? params.headers : {}) as Record<string, string>;
  const body = typeof params.body === 'string' ? Buffer.from(params.body, 'base64') : undefined;
  const result = await guardedFetch(String(params.url), {
    allowPrivate: options.allowPrivate(),
    maxBytes: FETCH_LIMIT_BYTES,
    timeoutMs: options.timeoutMs,
    ...(method === 'GET' && !body && Object.keys(headers).length === 0 ? {} : { request: { method, headers, ...(body ? { body } : {}) } }),
    refuseHost: (url) =>
      hostGranted(url, options.net)
        ? undefined
        : `plugin ${options.id} may reach only ${options.net.length > 0 ? options.net.join(', ') : 'no host'} (permissions.net), not ${url.host}.`,
  });
  return { status: result.status, headers: result.headers, body: result.body.toString('base64') };
}
