import { join } from 'node:path';
import { resolveStateDir } from '../config/index.js';
import { parseArgvFast } from './argv.js';
import { quietOnClosedPipe } from './closed-pipe.js';
import type { CodeCachedBundles } from './code-cache.js';
import { applyGatewayHeapPolicy, applyTuiHeapPolicy } from './heap-policy.js';
import { helpText } from './help-text.js';
import { writeStdoutSync } from './stdout-sync.js';

// Set by scripts/build.mjs: each code-cached bundle in dist/chunks/ and its content hash.
declare const CLAW_CODE_CACHED_BUNDLES: Record<string, string>;

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

/**
 * `claw status` runs in prompts and loops, so it skips the ES module loader
 * too: its command is built as one CommonJS file (scripts/build.mjs) that
 * asks the gateway over HTTP. Any other spelling goes through main.js.
 */
function runStatus(argv: readonly string[]): boolean {
  const [first, second] = argv;
  if (first !== 'status' || argv.length > 2 || (second !== undefined && second !== '--json')) return false;
  quietOnClosedPipe();
  const { run } = require('../chunks/status-command.cjs') as typeof import('./commands/status.js');
  run({ args: [], flags: { json: second === '--json' }, argv: [...argv] }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`claw: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
  return true;
}

/**
 * Runs the entry of a code-cached bundle (code-cache.ts). Its heap policy
 * comes first: V8 checks a code cache against its flags, so they must be set
 * before the bundle compiles. code-cache.js is required here, not imported:
 * help, version and status never load node:vm.
 */
function runBundle<Exports>(
  name: string,
  heapPolicy: (v8: typeof import('node:v8')) => void,
  start: (exports: Exports, bundles: CodeCachedBundles) => Promise<number>,
): true {
  quietOnClosedPipe();
  heapPolicy(require('node:v8') as typeof import('node:v8'));
  const { CodeCachedBundles, codeCacheDir } = require('./code-cache.js') as typeof import('./code-cache.js');
  const bundles = new CodeCachedBundles(join(__dirname, '..', 'chunks'), CLAW_CODE_CACHED_BUNDLES, codeCacheDir(resolveStateDir()));
  start(bundles.require<Exports>(name), bundles).then((code) => {
    process.exitCode = code;
  });
  return true;
}

/**
 * `claw gateway run` (what `gateway start`, the service units and the TUI
 * start) is built as a CommonJS bundle of its own too, compiled with V8's
 * code cache: most of its start was compiling. It saves the cache once its
 * start-up work is done.
 */
function runGateway(argv: readonly string[]): boolean {
  const parsed = argv[0] === 'gateway' && argv[1] === 'run' ? parseArgvFast(argv) : undefined;
  if (parsed?.input.args.length !== 1) return false;
  return runBundle<typeof import('./gateway-run.js')>('gateway-run.cjs', applyGatewayHeapPolicy, ({ runGateway }, bundles) =>
    runGateway(parsed.input, () => bundles.save()),
  );
}

/** `claw` alone, the TUI, is a code-cached bundle too. */
function runTui(argv: readonly string[]): boolean {
  if (argv.length !== 0) return false;
  return runBundle<typeof import('./tui-run.js')>('tui-run.cjs', applyTuiHeapPolicy, ({ runDefault }, bundles) => {
    // By then the first frames and the hello snapshot have rendered.
    setTimeout(() => bundles.save(), 2000).unref();
    return runDefault({ args: [], flags: { json: false }, argv: [] });
  });
}

const argv = process.argv.slice(2);
const text = answered(argv);
if (text !== undefined) writeStdoutSync(text);
else if (!runStatus(argv) && !runGateway(argv) && !runTui(argv)) void import('./main.js');
