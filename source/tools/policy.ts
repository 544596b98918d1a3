import { toolGroups, type ToolGroup } from './types.js';

export type ToolProfile = 'minimal' | 'messaging' | 'coding' | 'full';

/** One level of the pipeline (global, agent, session type, subagent role). */
export interface PolicyLayer {
  /** Replaces the profile chosen by the levels before it. */
  profile?: ToolProfile;
  /** Tool names or `group:<name>` added. */
  allow?: readonly string[];
  /** Tool names or `group:<name>` removed; a deny at any level beats an allow at any level. */
  deny?: readonly string[];
  /** What this level is, in the words `/context list` gives a withheld tool (levels past the pipeline's five). */
  label?: string;
}

export interface PolicyTool {
  name: string;
  group: ToolGroup;
}

export interface PolicyDecision {
  name: string;
  allowed: boolean;
  /** Why, in words an operator reads in `tools.effective`. */
  reason: string;
}

const profileEntries: Record<ToolProfile, readonly string[]> = {
  // heartbeat_respond is how a heartbeat stays quiet: every profile keeps it.
  minimal: ['session_status', 'heartbeat_respond'],
  messaging: ['group:messaging', 'sessions_list', 'sessions_history', 'sessions_send', 'session_status', 'heartbeat_respond'],
  coding: ['group:fs', 'group:runtime', 'group:sessions', 'group:memory', 'group:web', 'group:mcp', 'group:plugins', 'heartbeat_respond', 'message'],
  full: toolGroups.map((group) => `group:${group}`),
};

export const DEFAULT_TOOL_PROFILE: ToolProfile = 'coding';

function matches(entry: string, tool: PolicyTool): boolean {
  if (entry === '*') return true;
  if (entry.startsWith('group:')) {
    const group = entry.slice('group:'.length);
    return group === '*' || group === tool.group;
  }
  return entry === tool.name;
}

function firstMatch(entries: readonly string[], tool: PolicyTool): string | undefined {
  return entries.find((entry) => matches(entry, tool));
}

/** Decides every tool's visibility for one turn. Pure: layers in order global → agent → session type → subagent role. */
export function decideTools(tools: readonly PolicyTool[], layers: readonly PolicyLayer[]): PolicyDecision[] {
  let profile = DEFAULT_TOOL_PROFILE;
  for (const layer of layers) if (layer.profile) profile = layer.profile;
  const base = profileEntries[profile];
  const allows = layers.flatMap((layer, level) => (layer.allow ?? []).map((entry) => ({ entry, level })));
  const denies = layers.flatMap((layer, level) => (layer.deny ?? []).map((entry) => ({ entry, level })));
  return tools.map((tool) => {
    const denied = denies.find(({ entry }) => matches(entry, tool));
    if (denied) return { name: tool.name, allowed: false, reason: `denied by "${denied.entry}" (${levelName(denied.level, layers)})` };
    const fromProfile = firstMatch(base, tool);
    if (fromProfile) return { name: tool.name, allowed: true, reason: `profile ${profile}` };
    const allowed = allows.find(({ entry }) => matches(entry, tool));
    if (allowed) return { name: tool.name, allowed: true, reason: `allowed by "${allowed.entry}" (${levelName(allowed.level, layers)})` };
    return { name: tool.name, allowed: false, reason: `not in profile ${profile}` };
  });
}

const levelNames = ['global', 'agent', 'session type', 'subagent role', 'who asked: tools.profiles'];
function levelName(level: number, layers: readonly PolicyLayer[]): string {
  return layers[level]?.label ?? levelNames[level] ?? `level ${level}`;
}

export function allowedToolNames(tools: readonly PolicyTool[], layers: readonly PolicyLayer[]): Set<string> {
  return new Set(
    decideTools(tools, layers)
      .filter((d) => d.allowed)
      .map((d) => d.name),
  );
}

interface ToolsPolicyConfig extends PolicyLayer {
  agents?: Record<string, PolicyLayer>;
  sessionTypes?: Record<string, PolicyLayer>;
  subagentRoles?: Record<string, PolicyLayer>;
  profiles?: Record<string, PolicyLayer>;
}

export interface PolicyScope {
  agentId: string;
  sessionType: string;
  subagentRole?: string;
  /** Who asked for the turn (a principal kind: `owner`, `contact`, `webhook`, …). */
  principalKind?: string;
}

/**
 * What a turn asked for by someone outside the owner's control keeps: no
 * tool that reads or writes files, runs a command, reads memory, fetches the
 * web, messages anyone, reaches other sessions or an MCP server. The owner
 * widens it per kind with `tools.profiles.<kind>`.
 */
const OUTSIDE_PROFILE: PolicyLayer = {
  deny: ['group:fs', 'group:runtime', 'group:memory', 'group:web', 'group:messaging', 'group:sessions', 'group:automation', 'group:mcp'],
};
const defaultProfiles: Record<string, PolicyLayer> = { contact: OUTSIDE_PROFILE, 'group-member': OUTSIDE_PROFILE, webhook: OUTSIDE_PROFILE };

/** What a session type gets when the config says nothing about it: a subagent does not message people on its own. */
const defaultSessionTypeLayers: Record<string, PolicyLayer> = { subagent: { deny: ['message'] } };

/**
 * The pipeline levels for one turn (global, agent, session type, subagent
 * role, the principal's profile), read from the `tools` config section;
 * `agentLayer` (an `agents.list[].tools` entry) replaces `tools.agents.<id>`.
 */
export function policyLayers(config: ToolsPolicyConfig, scope: PolicyScope, agentLayer?: PolicyLayer): PolicyLayer[] {
  const global: PolicyLayer = { allow: config.allow ?? [], deny: config.deny ?? [] };
  if (config.profile) global.profile = config.profile;
  return [
    global,
    agentLayer ?? config.agents?.[scope.agentId] ?? {},
    config.sessionTypes?.[scope.sessionType] ?? defaultSessionTypeLayers[scope.sessionType] ?? {},
    scope.subagentRole ? (config.subagentRoles?.[scope.subagentRole] ?? {}) : {},
    scope.principalKind ? (config.profiles?.[scope.principalKind] ?? defaultProfiles[scope.principalKind] ?? {}) : {},
  ];
}
