import { quietOnClosedPipe } from './closed-pipe.js';
import { helpText } from './help-text.js';

/**
 * The `claw` executable. It is built as CommonJS: Node starts an ES module
 * entry about 9 ms slower (its loader), a quarter of what bare node costs, so
 * the answers that need no code at all (the version, the general help, a
 * known command's help) come from here. Everything else is main.js.
 */
function answered(argv: readonly string[]): string | undefined {
  const text = helpText();
  const [first, second] = argv;
  const known = (name: string | undefined): string | undefined => (name !== undefined && Object.hasOwn(text.commands, name) ? text.commands[name] : undefined);
  if (argv.length === 1 && (first === '--version' || first === '-v')) return `${text.version}\n`;
  if (argv.length === 1 && (first === '--help' || first === '-h' || first === 'help')) return text.general;
  if (argv.length === 2 && first === 'help') return known(second);
  if (argv.length === 2 && (second === '--help' || second === '-h')) return known(first);
  return undefined;
}

const text = answered(process.argv.slice(2));
if (text === undefined) void import('./main.js');
else {
  quietOnClosedPipe();
  process.stdout.write(text);
}
