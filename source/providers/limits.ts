import type { WireApi } from './types.js';

/** What one wire API refuses in a request's tool list, as data: the code that builds requests reads it from here. */
export interface ApiLimits {
  /** Most tools one request may list (Chat Completions: `array_above_max_length` past 128). */
  maxTools: number;
  /** Longest tool description taken (Chat Completions: `string_above_max_length`); longer ones are cut with a mark. */
  maxDescription?: number;
  /** A tool name the API takes. */
  toolName: RegExp;
  /** A property key in a tool's input schema; other keys are renamed on the wire and mapped back (tools/schema-keys.ts). */
  propertyKey?: RegExp;
  /** Said in messages about these limits. */
  label: string;
}

export const API_LIMITS: Readonly<Record<WireApi, ApiLimits>> = {
  openai: { label: 'OpenAI Chat Completions', maxTools: 128, maxDescription: 1024, toolName: /^[a-zA-Z0-9_-]{1,64}$/ },
  anthropic: { label: 'Anthropic Messages', maxTools: 512, toolName: /^[a-zA-Z0-9_-]{1,64}$/, propertyKey: /^[a-zA-Z0-9_.-]{1,64}$/ },
};

/** The strictest count any wire API takes: a server that must always be sent whole fits every model only below it. */
export const MAX_TOOLS_EVERYWHERE = Math.min(...Object.values(API_LIMITS).map((limits) => limits.maxTools));
