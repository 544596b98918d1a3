export { resolveStateDir, statePaths, DEFAULT_AGENT_ID, type StatePaths } from './paths.js';
export { writeFileAtomic, writeFileAtomicSync, replaceFileSync, writeFully, writeFullySync, nodeFileOps, errorCode, type FileOps } from './atomic-file.js';
export { parseJsonc } from './jsonc.js';
export { configSchema, type ClawConfig, type ClawConfigInput } from './schema.js';
export { ConfigError, loadConfig, readRawConfig, writeRawConfig, validateConfig } from './config-file.js';
export { getAtPath, setAtPath, unsetAtPath, parseCliValue } from './config-keys.js';
export { setBudget } from './budget-keys.js';
export { DEFAULT_GATEWAY_PORT } from './sections/gateway.js';
export { dropPolicies } from './sections/queue.js';
export { DEFAULT_HEARTBEAT_PROMPT, type HeartbeatConfig } from './sections/heartbeat.js';
export { dmScopes } from './sections/sessions.js';
export { backgroundKinds, type BackgroundKind, type BudgetsConfig } from './sections/budgets.js';
export { toolProfiles, DEFAULT_SECRET_PATHS } from './sections/tools.js';
export { redactSkillSecrets, skillEnvSecrets, DEFAULT_SKILLS_PROMPT_CHARS } from './sections/skills.js';
export type { HooksConfig, WebhookMapping } from './sections/hooks.js';
export type { SubagentsSettings } from './sections/subagents.js';
export type { AcpSettings } from './sections/acp.js';
export { telegramAccount, type ChannelsConfig, type TelegramAccountConfig } from './sections/channels.js';
export { resolveGatewayPort } from './gateway-port.js';
export { CLAW_VERSION, PACKAGE_ROOT } from './version.js';
export { agentWorkspaceDir } from './agent-workspace.js';
export { systemClock, sleepOn, type Clock, type TimerHandle } from './clock.js';
export { ensureGatewayTokenSync, readGatewayTokenSync } from './gateway-token-file.js';
export { secureStateDirSync } from './private-state.js';
export {
  hashToken,
  tokenMatches,
  scopesForToken,
  createScopedToken,
  revokeScopedToken,
  listScopedTokens,
  parseScopes,
  OPERATOR_SCOPES,
  type ScopedToken,
} from './gateway-tokens.js';
export { loadYamlSync, type YamlParser } from './yaml.js';
export { createFileLogger, silentLogger, redactSecrets, type Logger, type LogLevel } from './logger.js';
export { throttle } from './throttle.js';
