export interface CommandInput {
  /** Positional words after the command name. */
  args: string[];
  flags: { port?: number | undefined; bind?: string | undefined; json: boolean } & Record<string, unknown>;
  /** The raw argv after `claw`, for commands that take `-- CMD ARGS…`. */
  argv: string[];
}

/** Resolves to the process exit code. */
export type CommandRun = (input: CommandInput) => Promise<number>;
