/**
 * The value of `--name VALUE` or `--name=VALUE` in raw argv, read as a string
 * (the generic parser would turn numeric-looking ids into numbers).
 */
export function stringFlag(argv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === `--${name}`) return argv[i + 1];
    if (arg.startsWith(`--${name}=`)) return arg.slice(name.length + 3);
  }
  return undefined;
}

/** argv words that are neither flags nor the values of the named value flags. */
export function positionals(argv: readonly string[], valueFlags: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') return [...words, ...argv.slice(i + 1)];
    if (arg.startsWith('--')) {
      const name = arg.slice(2);
      if (valueFlags.includes(name) || ['port', 'bind'].includes(name)) i += 1;
      continue;
    }
    words.push(arg);
  }
  return words;
}
