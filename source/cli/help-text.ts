import { CLAW_VERSION } from '../config/index.js';
import { commandTable } from './command-table.js';
import { commandHelp, generalHelp } from './help.js';

export interface HelpText {
  version: string;
  general: string;
  /** `claw help NAME` text by command name. */
  commands: Record<string, string>;
}

/**
 * Every help screen and the version, computed from the command table. The
 * build evaluates this once and ships the result as a literal (see
 * scripts/help-text.mjs), so `claw --help` and `--version` load no module;
 * run from source it is computed on the spot, from the same table.
 */
export function helpText(): HelpText {
  const commands: Record<string, string> = {};
  for (const name of Object.keys(commandTable)) {
    const text = commandHelp(name);
    if (text !== undefined) commands[name] = text;
  }
  return { version: CLAW_VERSION, general: generalHelp(), commands };
}
