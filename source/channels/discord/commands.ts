import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../config/index.js';
import type { CommandInfo } from '../../protocol/index.js';
import { tokenFingerprint } from '../token-lock.js';
import type { DiscordRest } from './rest.js';

/** A CHAT_INPUT application command as Discord takes it. */
export interface DiscordCommand {
  name: string;
  description: string;
  type: 1;
  options?: Array<{ type: 3; name: 'args'; description: string; required: false }>;
}

/** Discord takes at most 100 global commands; names are 1-32 lowercase letters, digits, "-" or "_". */
const MAX_COMMANDS = 100;
const NAME = /^[-_\p{Ll}\p{N}]{1,32}$/u;

/** claw's slash commands as Discord's command menu: each with one optional free-text `args` option when it takes arguments. */
export function applicationCommands(commands: readonly CommandInfo[]): DiscordCommand[] {
  const out: DiscordCommand[] = [];
  for (const command of commands) {
    if (!NAME.test(command.name) || out.some((c) => c.name === command.name)) continue;
    out.push({
      name: command.name,
      type: 1,
      description: (command.description || command.name).slice(0, 100),
      ...(command.args ? { options: [{ type: 3, name: 'args', description: command.args.slice(0, 100), required: false }] } : {}),
    });
    if (out.length === MAX_COMMANDS) break;
  }
  return out;
}

/**
 * Registers the command menu with one bulk overwrite, and only when its
 * definition changed since the last registration (a hash on disk): a
 * restart, or a fleet of them, never spends the command route's small
 * rate limit on what Discord already has.
 */
export class CommandSync {
  readonly #file: string;

  constructor(dir: string, token: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.#file = join(dir, `${tokenFingerprint(token)}.commands.json`);
  }

  async sync(rest: DiscordRest, applicationId: string, commands: readonly DiscordCommand[]): Promise<'registered' | 'unchanged'> {
    const hash = createHash('sha256')
      .update(JSON.stringify([applicationId, commands]))
      .digest('hex');
    if (this.#registered() === hash) return 'unchanged';
    await rest.request('PUT', `/applications/${applicationId}/commands`, commands);
    await writeFileAtomic(this.#file, `${JSON.stringify({ hash })}\n`, 0o600);
    return 'registered';
  }

  #registered(): string | undefined {
    try {
      return (JSON.parse(readFileSync(this.#file, 'utf8')) as { hash?: string }).hash;
    } catch {
      return undefined;
    }
  }
}
