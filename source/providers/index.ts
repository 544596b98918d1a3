export type {
  Providers,
  AssistantBlock,
  AuthProfile,
  Clock,
  ModelCost,
  ModelListing,
  ProviderEvent,
  ProviderMessage,
  ResolvedModel,
  StopReason,
  ThinkingLevel,
  ToolSchema,
  TurnRequest,
  Usage,
  WireApi,
  WireRequest,
} from './types.js';
export { ProviderError, isProviderError, providerErrorKinds, type ProviderErrorKind } from './errors.js';
