export type {
  Providers,
  AssistantBlock,
  AuthProfile,
  CooldownStatus,
  ModelCost,
  ModelListing,
  ProviderEvent,
  ProviderMessage,
  ProviderMedia,
  ResolvedModel,
  StopReason,
  ThinkingLevel,
  ToolSchema,
  TurnRequest,
  Usage,
  WireApi,
  WireRequest,
} from './types.js';
export { ProviderError, isProviderError, providerErrorKinds, type ProviderErrorKind, type BudgetStop } from './errors.js';
export * from './spend/index.js';
export { createProviders, setupGuide, type ProvidersOptions } from './registry.js';
export { defaultFailoverPolicy, type FailoverPolicy } from './failover.js';
export { BILLING_PROBE_MS, COOLDOWN_STEPS_MS, MISSING_MODEL_COOLDOWN_MS, SERVER_COOLDOWN_MS } from './cooldowns.js';
export { normalizeToolSchema } from './tool-schema.js';
export { API_LIMITS, MAX_TOOLS_EVERYWHERE, type ApiLimits } from './limits.js';
export { estimateTokens, estimateMessageTokens, estimateContextTokens, reportedContextTokens, type ContextParts } from './tokens.js';
export { splitModelRef } from './catalogue.js';
export { credentialsPath } from './credentials.js';
export * from './setup/index.js';
export { modelProblem } from './model-problem.js';
export { WIRE_ADAPTERS, wireAdapterFor, type WireAdapter } from './wire-adapters.js';
export type { PluggedModel, PluggedProvider } from './plugged.js';
export { MessageAssembler, finalStopReason } from './assemble.js';
