import type { TuiController } from '../controller.js';
import type { TuiStore } from '../store/store.js';

export interface CommandContext {
  controller: TuiController;
  store: TuiStore;
  exit(): void;
  /** Opens the draft in $EDITOR and puts the saved text back (Ctrl+G, Ctrl+X Ctrl+E). */
  editExternally?(): Promise<void>;
}

/** A slash command as data: one file per command, collected in registry.ts. */
export interface SlashCommand {
  name: string;
  aliases: readonly string[];
  /** Argument synopsis for /help and the popup, e.g. `[model]`. */
  args: string;
  description: string;
  /** Candidates for the argument being typed. */
  complete?(partial: string, context: CommandContext): string[];
  run(args: string, context: CommandContext): Promise<void> | void;
  /** Answers outside the chat (a picker, a popup, quitting): not echoed there. */
  quiet?: boolean;
}
