import { createInterface } from 'node:readline/promises';
import { join } from 'node:path';
import { DEFAULT_AGENT_ID, loadConfig, statePaths } from '../../config/index.js';
import {
  agentWorkspaceDir,
  formatInstallPlan,
  formatSkillsTable,
  inspectSkillSource,
  installSkillSync,
  InstallError,
  skillRows,
  SkillsService,
} from '../../skills/index.js';
import type { CommandRun } from '../command.js';
import { printJson } from '../format.js';

const usage = `Usage:
  claw skills list [--agent ID] [--json]     every skill found, with its status
  claw skills check [--agent ID] [--json]    exit 1 when a skill is broken
  claw skills install PATH|FILE.tar.gz|FILE.zip [--workspace] [--agent ID] [--yes]`;

function fail(text: string, code = 2): number {
  process.stderr.write(`claw skills: ${text}\n`);
  return code;
}

/** Words and options after `skills`, read from the raw argv so `--agent ID` keeps its value. */
function options(argv: readonly string[]): { words: string[]; agent: string; workspace: boolean; yes: boolean } | string {
  const start = argv.indexOf('skills');
  const rest = argv.slice(start + 1);
  const words: string[] = [];
  let agent = DEFAULT_AGENT_ID;
  let workspace = false;
  let yes = false;
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i]!;
    if (arg === '--agent') {
      const value = rest[i + 1];
      if (!value || value.startsWith('-')) return '--agent needs an agent id.';
      agent = value;
      i += 1;
    } else if (arg.startsWith('--agent=')) agent = arg.slice('--agent='.length);
    else if (arg === '--workspace') workspace = true;
    else if (arg === '--yes' || arg === '-y') yes = true;
    else if (arg === '--json') continue;
    else if (arg.startsWith('-')) return `unknown option ${arg}.`;
    else words.push(arg);
  }
  return { words, agent, workspace, yes };
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return /^y(?:es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export const run: CommandRun = async ({ flags, argv }) => {
  const parsed = options(argv);
  if (typeof parsed === 'string') return fail(`${parsed}\n${usage}`);
  const [action = 'list', source] = parsed.words;
  const paths = statePaths();
  const config = loadConfig(paths.config);
  const known = [DEFAULT_AGENT_ID, ...config.agents.list.map((agent) => agent.id)];
  if (!known.includes(parsed.agent)) return fail(`no agent "${parsed.agent}" (configured: ${known.join(', ')}).`);
  const workspaceDir = (agentId: string) => agentWorkspaceDir(config, paths, agentId);
  const service = new SkillsService({ config, paths, workspaceDir });

  if (action === 'list' || action === 'check') {
    const skills = service.agent(parsed.agent);
    const rows = skillRows(skills);
    const broken = rows.filter((row) => row.status.startsWith('broken'));
    if (flags.json)
      printJson({
        agentId: parsed.agent,
        skills: rows,
        prompt: { form: skills.prompt.form, chars: skills.prompt.block.length, listed: skills.prompt.listed, omitted: skills.prompt.omitted },
      });
    else if (action === 'list') process.stdout.write(`${formatSkillsTable(skills)}\n`);
    else {
      for (const row of rows) {
        if (row.status !== 'ready' && !row.status.startsWith('shadowed')) process.stdout.write(`${row.name}: ${row.status}\n  ${row.location}\n`);
        for (const warning of row.warnings) process.stdout.write(`${row.name}: warning: ${warning}\n  ${row.location}\n`);
      }
      const ready = rows.filter((row) => row.status === 'ready').length;
      process.stdout.write(`${ready} ready, ${rows.length - ready - broken.length} not offered (needs, disabled or shadowed), ${broken.length} broken\n`);
    }
    return action === 'check' && broken.length > 0 ? 1 : 0;
  }

  if (action === 'install') {
    if (!source) return fail(`install needs a skill folder, .tar.gz or .zip.\n${usage}`);
    const root = parsed.workspace ? join(workspaceDir(parsed.agent), 'skills') : paths.skills;
    let plan;
    try {
      plan = inspectSkillSource(source);
    } catch (error) {
      if (error instanceof InstallError) return fail(error.message, 1);
      throw error;
    }
    try {
      process.stdout.write(`${formatInstallPlan(plan, join(root, plan.manifest.name))}\n`);
      if (!parsed.yes) {
        if (!process.stdin.isTTY)
          return fail(`not installed: confirm with --yes${plan.executables.length ? ' (this skill contains executable files)' : ''}.`, 1);
        if (!(await confirm('Install this skill? [y/N] '))) {
          process.stdout.write('Not installed.\n');
          return 1;
        }
      }
      const target = installSkillSync(plan, root);
      process.stdout.write(
        `Installed "${plan.manifest.name}" to ${target}. A running gateway picks it up within a second; \`claw skills list\` shows its status.\n`,
      );
      return 0;
    } catch (error) {
      if (error instanceof InstallError) return fail(error.message, 1);
      throw error;
    } finally {
      plan.cleanup();
    }
  }
  return fail(`unknown action "${action}".\n${usage}`);
};
