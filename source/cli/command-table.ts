import type { CommandRun } from './command.js';

export interface CommandEntry {
  /** One line for `claw --help`. */
  summary: string;
  /** The synopsis lines for `claw help NAME` and `claw NAME --help`. */
  usage: readonly string[];
  load(): Promise<CommandRun>;
}

/**
 * Subcommands, loaded lazily so `claw status` does not pay for the TUI's
 * dependencies. Help is generated from this table, so a command cannot exist
 * without appearing in it. A new command is a new file plus one entry here.
 */
export const commandTable: Record<string, CommandEntry> = {
  '': {
    summary: 'open the TUI (starts the local gateway if needed)',
    usage: ['claw'],
    load: async () => (await import('./commands/default.js')).run,
  },
  setup: {
    summary: 'first run: find or add a model provider, test it, save it (also adds fallbacks)',
    usage: [
      'claw setup',
      'claw setup --provider NAME --model ID [--key-env VAR] [--base-url URL] [--fallback|--main] [--agent-name NAME] [--user-name NAME] --yes [--json]',
    ],
    load: async () => (await import('./commands/setup.js')).run,
  },
  gateway: {
    summary: 'run, start, stop or restart the gateway daemon; tokens and service install',
    usage: [
      'claw gateway run|start|stop|restart|status [--port N] [--bind ADDR] [--json]',
      'claw gateway token|connect-info',
      'claw gateway install|uninstall',
    ],
    load: async () => (await import('./commands/gateway.js')).run,
  },
  status: {
    summary: 'gateway status (same as `claw gateway status`)',
    usage: ['claw status [--json]'],
    load: async () => (await import('./commands/status.js')).run,
  },
  attach: {
    summary: 'open the TUI on a remote gateway over ssh, or on a ws:// URL',
    usage: [
      'claw attach user@host[:sshport] [--remote-port N] [--agent ID] [--start] [--ssh-config FILE] [--remote-claw CMD]',
      'claw attach ws://host:port [--token TOKEN] [--agent ID]',
    ],
    load: async () => (await import('./commands/attach.js')).run,
  },
  agent: {
    summary: 'send one message and print the reply',
    usage: ['claw agent -m "message" [--session KEY] [--json | --output text|json|stream-json]'],
    load: async () => (await import('./commands/agent.js')).run,
  },
  message: {
    summary: 'send a message to a session and wait for its reply',
    usage: ['claw message send --session KEY "text" [--mode steer|followup|collect|interrupt] [--timeout SECONDS] [--json]'],
    load: async () => (await import('./commands/message.js')).run,
  },
  agents: {
    summary: 'the agents of this gateway: list, add, remove (applies at once, no restart)',
    usage: [
      'claw agents [list] [--json]',
      'claw agents add ID [--name NAME] [--workspace DIR] [--model provider/model] [--default] [--json]',
      'claw agents remove ID [--json]',
    ],
    load: async () => (await import('./commands/agents.js')).run,
  },
  sessions: {
    summary: 'list sessions with their state and token use',
    usage: ['claw sessions [--agent ID] [--json]'],
    load: async () => (await import('./commands/sessions.js')).run,
  },
  context: {
    summary: "what fills a session's context window",
    usage: ['claw context [list|detail] [--session KEY] [--json]'],
    load: async () => (await import('./commands/context.js')).run,
  },
  budget: {
    summary: "spend caps: today's spend against each, set one, resume a session the runaway guard paused",
    usage: ['claw budget [status] [--json]', 'claw budget set KEY VALUE', 'claw budget resume SESSION'],
    load: async () => (await import('./commands/budget.js')).run,
  },
  usage: {
    summary: 'spend over the last days: a bar chart (interactive and background) and a table by agent, session, model or kind',
    usage: ['claw usage [--by agent|session|model|kind] [--days N] [--json]'],
    load: async () => (await import('./commands/usage.js')).run,
  },
  browser: {
    summary: "the agent's browser: Chromium, sandbox, profiles; secrets it types without seeing them",
    usage: ['claw browser [status] [--json]', 'claw browser secret set NAME', 'claw browser secret list [--json]', 'claw browser secret remove NAME'],
    load: async () => (await import('./commands/browser.js')).run,
  },
  plugins: {
    summary: 'third-party tools, commands, hooks and providers, each in its own sandboxed process: add, enable (grant), list, logs',
    usage: [
      'claw plugins list [--json]',
      'claw plugins add PATH|FILE.tgz|SPEC [--json]',
      'claw plugins enable ID [--yes]',
      'claw plugins disable ID',
      'claw plugins remove ID',
      'claw plugins restart ID [--json]',
      'claw plugins logs ID [--lines N]',
      'claw plugins doctor [ID] [--json]',
      'claw plugins secret set ID NAME',
      'claw plugins secret list ID [--json]',
      'claw plugins secret remove ID NAME',
    ],
    load: async () => (await import('./commands/plugins.js')).run,
  },
  approvals: {
    summary: 'list and answer exec approval requests',
    usage: ['claw approvals [list] [--all] [--json]', 'claw approvals approve ID [--session | --always] [--json]', 'claw approvals deny ID [--json]'],
    load: async () => (await import('./commands/approvals.js')).run,
  },
  models: {
    summary: 'the models claw knows, which have a key, and which are cooling down',
    usage: ['claw models list [--json]', 'claw models reset-cooldown [PROVIDER|MODEL|KEY]'],
    load: async () => (await import('./commands/models.js')).run,
  },
  memory: {
    summary: 'the memory index: status, re-index, search',
    usage: [
      'claw memory status [--json] [--agent ID]',
      'claw memory index [--force] [--agent ID]',
      'claw memory search "query" [--json] [--agent ID] [--max N]',
    ],
    load: async () => (await import('./commands/memory.js')).run,
  },
  mcp: {
    summary: 'MCP servers: list, add, remove, their stderr logs, a test connection',
    usage: [
      'claw mcp list [--json]',
      'claw mcp add NAME [--env K=V]… [--cwd DIR] [--trust ask|allow] -- CMD [ARGS…]',
      'claw mcp add NAME --url URL [--sse] [--header K=V]… [--trust ask|allow]',
      'claw mcp remove NAME',
      'claw mcp logs NAME [--json]',
      'claw mcp test NAME [--json]',
      'claw mcp login NAME [--json]',
      'claw mcp logout NAME [--json]',
      'claw mcp inputs NAME',
    ],
    load: async () => (await import('./commands/mcp.js')).run,
  },
  config: {
    summary: 'read and edit ~/.claw/claw.json',
    usage: ['claw config get [key]', 'claw config set <key> <value>', 'claw config unset <key>', 'claw config path'],
    load: async () => (await import('./commands/config.js')).run,
  },
  doctor: {
    summary: 'check the installation and say how to fix what fails',
    usage: ['claw doctor [--json]'],
    load: async () => (await import('./commands/doctor.js')).run,
  },
  skills: {
    summary: 'Agent Skills: list with status, check, install from a folder or archive',
    usage: ['claw skills list [--json] [--agent ID]', 'claw skills check [--agent ID]', 'claw skills install PATH|FILE.tar.gz|FILE.zip [--workspace] [--yes]'],
    load: async () => (await import('./commands/skills.js')).run,
  },
  hooks: {
    summary: 'lifecycle hooks and webhooks: list, check, enable, disable, the webhook token, a test post',
    usage: ['claw hooks list|check [--json]', 'claw hooks enable|disable NAME', 'claw hooks token', "claw hooks test NAME --json '{…}'"],
    load: async () => (await import('./commands/hooks.js')).run,
  },
  channels: {
    summary: 'chat channels (Telegram): list accounts, their live status, store a bot token',
    usage: ['claw channels list|status [--json]', 'claw channels login CHANNEL [--account ID]'],
    load: async () => (await import('./commands/channels.js')).run,
  },
  pairing: {
    summary: 'who may DM the bot: pending pairing codes, approve, deny',
    usage: ['claw pairing [list] [--json]', 'claw pairing approve CODE [--owner]', 'claw pairing deny CODE'],
    load: async () => (await import('./commands/pairing.js')).run,
  },
  cron: {
    summary: 'scheduled jobs: list, add, edit, remove, run now, past runs',
    usage: [
      'claw cron list [--json]',
      'claw cron add --name NAME (--at WHEN | --every DURATION | --cron EXPR [--tz ZONE]) --message TEXT [--announce main|ROUTE]',
      'claw cron edit|rm|run|runs|enable|disable JOB   (its ID, its name when unique, or an ID prefix)',
    ],
    load: async () => (await import('./commands/cron.js')).run,
  },
  heartbeat: {
    summary: 'the heartbeat: status, run now, pause, resume',
    usage: ['claw heartbeat status|now|pause|resume [--agent ID]'],
    load: async () => (await import('./commands/heartbeat.js')).run,
  },
};
