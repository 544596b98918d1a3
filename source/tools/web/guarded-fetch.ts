import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { pipeline, type Readable } from 'node:stream';
import { createRequire } from 'node:module';
import type * as Zlib from 'node:zlib';
import { AddressPolicy } from './address-policy.js';

// https (with tls) and zlib take ~10 ms to load, and the gateway loads this module at every start; they load at the first fetch.
const requireBuiltin = createRequire(import.meta.url);

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface GuardedFetchOptions {
  allowPrivate: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  /** Name resolution; defaults to the system resolver. */
  resolve?: Resolver;
  /** Another method than GET, with its headers and body (a plugin's fetch); such a request does not follow redirects. */
  request?: { method: string; headers: Record<string, string>; body?: Buffer };
  /** Checked for the first URL and every redirect: a reason refuses the host before it is resolved. */
  refuseHost?(url: URL): string | undefined;
}

export interface GuardedFetchResult {
  /** The URL that produced the body, after redirects. */
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  headers: Record<string, string>;
  /** True when the body was cut at `maxBytes`. */
  truncated: boolean;
  redirects: string[];
}

export type WebFetchErrorKind = 'refused' | 'bad_url' | 'timeout' | 'aborted' | 'network' | 'too_many_redirects';

export class WebFetchError extends Error {
  constructor(
    readonly kind: WebFetchErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'WebFetchError';
  }
}

const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export const systemResolver: Resolver = async (hostname) => {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebFetchError('bad_url', `"${raw}" is not a valid URL. Pass an absolute http:// or https:// URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new WebFetchError('bad_url', `web_fetch only fetches http:// and https:// URLs, not ${url.protocol}`);
  }
  if (url.username || url.password) throw new WebFetchError('bad_url', 'URLs with embedded credentials are not fetched.');
  return url;
}

function refusal(url: URL, address: string, reason: string): WebFetchError {
  return new WebFetchError(
    'refused',
    `Refused to fetch ${url.href}: ${address} is ${reason}. ` +
      `If this host is meant to be reachable, add "${url.hostname.replace(/^\[|\]$/g, '')}" to tools.web.allowPrivate in claw.json.`,
  );
}

/** Resolves the host once and checks every address; the connection then goes to exactly that address. */
export async function checkedAddress(url: URL, policy: AddressPolicy, resolve: Resolver): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const hostAllowed = policy.hostAllowed(host);
  const family = isIP(host);
  if (family !== 0) {
    const verdict = policy.check(host);
    if (!hostAllowed && !verdict.allowed) throw refusal(url, host, verdict.reason ?? 'not allowed');
    return { address: host, family: family === 6 ? 6 : 4 };
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    throw new WebFetchError('network', `Could not resolve ${host}: ${(error as Error).message}. Check the URL.`);
  }
  if (addresses.length === 0) throw new WebFetchError('network', `${host} has no addresses. Check the URL.`);
  if (!hostAllowed) {
    // Every address must pass: a name that also points inside the network is refused outright.
    for (const entry of addresses) {
      const verdict = policy.check(entry.address);
      if (!verdict.allowed) throw refusal(url, `${host} (${entry.address})`, verdict.reason ?? 'not allowed');
    }
  }
  return addresses[0]!;
}

function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
}

function requestOnce(url: URL, pinned: ResolvedAddress, signal: AbortSignal, custom: GuardedFetchOptions['request']): Promise<IncomingMessage> {
  const transport = url.protocol === 'https:' ? (requireBuiltin('node:https') as typeof import('node:https')) : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: custom?.method ?? 'GET',
        agent: false,
        signal,
        lookup: pinnedLookup(pinned),
        headers: {
          'user-agent': 'claw-web-fetch/0.1 (+https://github.com/claw)',
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.9,*/*;q=0.5',
          ...custom?.headers,
          // The body is decoded here whatever the caller asked: only encodings this side can undo.
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      resolve,
    );
    request.on('error', reject);
    request.end(custom?.body);
  });
}

/** Response headers as one string each; the body is already decoded, so its encoding and length no longer apply. */
function flatHeaders(response: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined || name === 'content-encoding' || name === 'content-length' || name === 'transfer-encoding') continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const zlib = requireBuiltin('node:zlib') as typeof Zlib;
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : undefined;
  return decoder ? pipeline(response, decoder, () => {}) : response;
}

/** Reads at most `maxBytes` of the decoded body, so a compressed bomb is cut like any large page. */
async function readCapped(response: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let total = 0;
  let truncated = false;
  try {
    for await (const chunk of decoded(response)) {
      const buffer = chunk as Buffer;
      const room = maxBytes - total;
      if (buffer.length > room) {
        chunks.push(buffer.subarray(0, room));
        truncated = true;
        break;
      }
      chunks.push(buffer);
      total += buffer.length;
    }
  } finally {
    response.destroy();
  }
  return { body: Buffer.concat(chunks), truncated };
}

function describeFailure(error: unknown, url: URL, stop: { timedOut: boolean; aborted: boolean }, timeoutMs: number): WebFetchError {
  if (error instanceof WebFetchError) return error;
  if (stop.timedOut)
    return new WebFetchError('timeout', `Fetching ${url.href} took longer than ${timeoutMs} ms and was stopped. Try again later or a smaller page.`);
  if (stop.aborted) return new WebFetchError('aborted', `Fetching ${url.href} was cancelled.`);
  return new WebFetchError('network', `Fetching ${url.href} failed: ${(error as Error)?.message ?? String(error)}.`);
}

interface Opened {
  response: IncomingMessage;
  url: URL;
  redirects: string[];
  /** Stops the deadline and lets go of the caller's signal. */
  finish(): void;
  describe(error: unknown): WebFetchError;
}

/**
 * Opens a URL with SSRF guards: only http(s), every hop's host resolved here
 * and checked against the address policy, the socket pinned to the checked
 * address (no second DNS answer can slip in), redirects followed by hand and
 * re-checked; resolves once the final response's headers arrived.
 */
async function openGuarded(rawUrl: string, options: GuardedFetchOptions): Promise<Opened> {
  const policy = new AddressPolicy(options.allowPrivate);
  const resolve = options.resolve ?? systemResolver;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) controller.abort();
  const finish = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  };
  const redirects: string[] = [];
  let url = parseTarget(rawUrl);
  const describe = (error: unknown) => describeFailure(error, url, { timedOut, aborted: controller.signal.aborted }, options.timeoutMs);
  try {
    for (;;) {
      const refused = options.refuseHost?.(url);
      if (refused) throw new WebFetchError('refused', refused);
      const pinned = await checkedAddress(url, policy, resolve);
      controller.signal.throwIfAborted();
      const response = await requestOnce(url, pinned, controller.signal, options.request);
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(response.statusCode ?? 0) && location && !options.request) {
        response.destroy();
        if (redirects.length >= maxRedirects) {
          throw new WebFetchError('too_many_redirects', `${rawUrl} redirected more than ${maxRedirects} times; stopped at ${url.href}.`);
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new WebFetchError('bad_url', `${url.href} redirected to an invalid location "${location}".`);
        }
        url = parseTarget(next.href);
        redirects.push(url.href);
        continue;
      }
      return { response, url, redirects, finish, describe };
    }
  } catch (error) {
    finish();
    throw describe(error);
  }
}

/** GET (or `request`) a URL with the guards of `openGuarded`, body and time capped. */
export async function guardedFetch(rawUrl: string, options: GuardedFetchOptions): Promise<GuardedFetchResult> {
  const { response, url, redirects, finish, describe } = await openGuarded(rawUrl, options);
  try {
    const { body, truncated } = await readCapped(response, options.maxBytes);
    return {
      url: url.href,
      status: response.statusCode ?? 0,
      contentType: String(response.headers['content-type'] ?? ''),
      body,
      headers: flatHeaders(response),
      truncated,
      redirects,
    };
  } catch (error) {
    throw describe(error);
  } finally {
    finish();
  }
}

export interface GuardedStream {
  status: number;
  headers: Record<string, string>;
  /** The decoded body as it arrives; `options.timeoutMs` covered only the wait for the headers. */
  body: AsyncIterable<Buffer>;
  /** Stops reading and closes the connection. */
  cancel(): void;
}

/** Like guardedFetch, but hands the body over as it streams (a plugin's fetch: a model's server-sent events). */
export async function guardedStream(rawUrl: string, options: GuardedFetchOptions): Promise<GuardedStream> {
  const { response, finish } = await openGuarded(rawUrl, options);
  finish();
  const body = decoded(response);
  return {
    status: response.statusCode ?? 0,
    headers: flatHeaders(response),
    body: body as AsyncIterable<Buffer>,
    cancel: () => {
      body.destroy();
      response.destroy();
    },
  };
}
