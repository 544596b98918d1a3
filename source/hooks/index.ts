export { HooksService, hookRoots, type HooksServiceOptions } from './hooks-service.js';
export { discoverHooks, discoverHooksSync, bundledHooksDir, type HookDiscovery, type HookRoots } from './discovery.js';
export { readHookSync, hookDigestSync, HookManifestError, type HookDefinition, type HookManifest, type HookSource, type HookHandler } from './hook-manifest.js';
export {
  HookDispatcher,
  hookBlocked,
  hookEnabled,
  type HookContext,
  type HookStatus,
  type HookCapabilities,
  type HookEventEnvelope,
} from './hook-dispatcher.js';
export { hookEvents, blockingEvents, type HookEvent } from './hook-events.js';
export { unmetRequirements } from './requirements.js';
export { parseFrontmatter, FrontmatterError } from './frontmatter.js';
export { signWebhook, signatureProblem } from './webhooks/signature.js';
export { renderTemplate } from './webhooks/template.js';
export { ensureWebhookTokenSync, readWebhookTokenSync, webhookTokenPath } from './webhooks/webhook-token.js';
export { WEBHOOK_CHANNEL } from './webhooks/webhook-routes.js';
export type { WebhookRun } from './webhooks/run-log.js';
