import type { CommandRun } from './command.js';

/**
 * Subcommands, loaded lazily so `claw status` does not pay for the TUI's
 * dependencies. A new command is a new file plus one line here.
 */
export const commandTable: Record<string, () => Promise<CommandRun>> = {
  '': async () => (await import('./commands/default.js')).run,
  gateway: async () => (await import('./commands/gateway.js')).run,
  status: async () => (await import('./commands/status.js')).run,
  config: async () => (await import('./commands/config.js')).run,
  memory: async () => (await import('./commands/memory.js')).run,
  attach: async () => (await import('./commands/attach.js')).run,
  doctor: async () => (await import('./commands/doctor.js')).run,
  models: async () => (await import('./commands/models.js')).run,
  mcp: async () => (await import('./commands/mcp.js')).run,
  approvals: async () => (await import('./commands/approvals.js')).run,
  agent: async () => (await import('./commands/agent.js')).run,
  sessions: async () => (await import('./commands/sessions.js')).run,
  message: async () => (await import('./commands/message.js')).run,
  context: async () => (await import('./commands/context.js')).run,
  skills: async () => (await import('./commands/skills.js')).run,
  hooks: async () => (await import('./commands/hooks.js')).run,
  cron: async () => (await import('./commands/cron.js')).run,
  heartbeat: async () => (await import('./commands/heartbeat.js')).run,
};
