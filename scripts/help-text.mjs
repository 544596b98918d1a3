// An esbuild plugin that replaces source/cli/help-text.ts in the bundle with
// its own result, computed here at build time: help and version then cost
// the CLI no import. The table stays the one source of the text.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

async function computeHelpText(root) {
  const source = join(root, 'source');
  const built = await esbuild.build({
    entryPoints: [join(source, 'cli', 'help-text.ts')],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
    // The table's loaders import every command; only its data is needed here.
    plugins: [{ name: 'skip-commands', setup: (b) => b.onResolve({ filter: /^\.\/commands\// }, (args) => ({ path: args.path, external: true })) }],
  });
  // Two folders below the root, as the module's own file is, so its package.json lookup holds.
  const dir = join(root, 'dist', '.build');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'help-text.mjs');
  writeFileSync(file, built.outputFiles[0].text);
  try {
    return (await import(pathToFileURL(file).href)).helpText();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function helpTextModule(root) {
  const text = await computeHelpText(root);
  return {
    name: 'claw-help-text',
    setup(build) {
      build.onResolve({ filter: /\/help-text\.js$/ }, (args) =>
        args.importer.endsWith(join('cli', 'main.ts')) || args.importer.endsWith(join('cli', 'bin.ts'))
          ? { path: 'help-text', namespace: 'claw-help-text' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'claw-help-text' }, () => ({
        contents: `const text = ${JSON.stringify(text)};\nexport function helpText() { return text; }\n`,
        loader: 'js',
      }));
    },
  };
}
