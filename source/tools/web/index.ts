export { createWebFetchTool, type WebToolConfig } from './web-fetch-tool.js';
export {
  guardedStream,
  WebFetchError,
  type GuardedFetchOptions,
  type GuardedFetchResult,
  type GuardedStream,
  type Resolver,
  type ResolvedAddress,
  type WebFetchErrorKind,
} from './guarded-fetch.js';
export { AddressPolicy, type AddressVerdict } from './address-policy.js';
export type { ReadablePage } from './html-to-markdown.js';
export { UNTRUSTED_TAG, UNTRUSTED_NOTICE, wrapUntrusted, fenceNonce } from './untrusted.js';
