// Builds dist/ with esbuild (the executable, dist/cli/claw.cjs, last, below):
//  - the product: source/cli/main.ts bundled with code splitting into
//    dist/cli/main.js plus dist/chunks/*.js. Every dynamic import() (a command,
//    the TUI, the daemon) becomes its own chunk, so `claw --help` reads one
//    small file and the other commands a handful instead of hundreds. New
//    modules join by being imported; there is no file list. Chunks sit two
//    folders below the package root, as source/<subsystem>/<file>.ts does, so
//    import.meta.url-relative lookups resolve the same from source and bundle.
//  - `claw status` on its own, and `claw gateway run` and `claw` (the TUI) as
//    code-cached CommonJS bundles (dist/chunks/*.cjs; see codeCachedBundle).
//  - per-module files (dist/<subsystem>/*.js, packages left as imports) for the
//    bench/ scripts that drive one subsystem in-process; not shipped (see
//    `files` in package.json) and never loaded by the bundle.
// Types are checked separately by `tsc --noEmit -p .`.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { asciiContentId, asciiSource, deferredBuiltins, synchronousYoga, vendorFile, vendorsApart, zodApart, zodVendorEntry } from './commonjs-bundles.mjs';
import { helpTextModule } from './help-text.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'source');
const dist = join(root, 'dist');

// Native addons and the modules the code loads through createRequire stay
// real packages; the rest of node_modules is inlined.
const external = ['better-sqlite3', 'sqlite-vec', 'playwright-core', 'bufferutil', 'utf-8-validate', 'react-devtools-core'];

// Bundled CommonJS calls require() for node built-ins; an ESM chunk has none
// unless one is made from the chunk's own URL.
const banner = "import { createRequire as __clawCreateRequire } from 'node:module';\nconst require = __clawCreateRequire(import.meta.url);";

// zod re-exports every translation of its error messages as `z.locales`;
// claw speaks English and never reads them, and they are half of zod's
// load time. The bundle keeps only `en` (which zod configures itself).
const englishOnlyZod = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: join(args.resolveDir, '..', 'locales', 'en.js'), namespace: 'zod-locales' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

// ws requires https, tls and zlib when it loads, but uses them only to dial
// wss:// and for permessage-deflate, which claw's gateway does not offer.
// Loading them costs ~10 ms of every start (gateway, `claw status`, TUI), so
// inside ws they become objects that require the real module on first use.
const lazyBuiltinsInWs = {
  name: 'lazy-builtins-in-ws',
  setup(build) {
    build.onResolve({ filter: /^(https|tls|zlib)$/ }, (args) =>
      /[\\/]node_modules[\\/]ws[\\/]/.test(args.importer) ? { path: args.path, namespace: 'lazy-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      contents: `let real;\nmodule.exports = new Proxy({}, { get: (_, key) => (real ??= require('node:${args.path}'))[key] });\n`,
      loader: 'js',
    }));
  },
};

// string-width (Ink measures every text node with it, wrap-ansi every line)
// splits each string into graphemes with Intl.Segmenter: ~0.1 ms a call on
// Node 20, 115 ms of the TUI's first frame. Simple text (see
// scripts/simple-text-width.mjs) is one cell a code point in every version
// of it, so that answer comes first; the package (and its Segmenter, 20-35 ms
// to build) loads on the first string that needs it.
const simpleFirstStringWidth = {
  name: 'simple-first-string-width',
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      const real = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'real' });
      return real.errors.length > 0 ? undefined : { path: real.path, namespace: 'simple-first-string-width' };
    });
    build.onLoad({ filter: /.*/, namespace: 'simple-first-string-width' }, (args) => ({
      contents: [
        `import { simpleTextWidth } from ${JSON.stringify(join(root, 'scripts', 'simple-text-width.mjs'))};`,
        'let real;',
        'export default function stringWidth(string, options) {',
        '  const simple = simpleTextWidth(string, options);',
        '  if (simple !== undefined) return simple;',
        `  real ??= require(${JSON.stringify(args.path)}).default;`,
        '  return real(string, options);',
        '}',
      ].join('\n'),
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

// Ink's output splits every line it writes into graphemes (through
// @alcalzone/ansi-tokenize), and so does slice-ansi when a box clips its
// text; both build an Intl.Segmenter when they load, the first of which
// costs ICU's break rules, ~20 ms of the TUI's first frame. Each builds
// the TUI's stand-in (source/tui/text/simple-graphemes.ts) instead, which
// splits simple text itself and builds the real one on the first string that
// needs it.
const segmenterBuilders = [
  /[\\/]node_modules[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]tokenize\.js$/,
  /[\\/]node_modules[\\/]slice-ansi[\\/]tokenize-ansi\.js$/,
];
const simpleFirstGraphemes = {
  name: 'simple-first-graphemes',
  setup(build) {
    for (const filter of segmenterBuilders)
      build.onLoad({ filter }, (args) => {
        const code = readFileSync(args.path, 'utf8');
        const builds = code.split('new Intl.Segmenter(').length - 1;
        if (builds !== 1)
          throw new Error(`${args.path} builds ${builds} Intl.Segmenters where simple-first-graphemes expects one; check the stand-in still fits`);
        const helper = JSON.stringify(join(source, 'tui', 'text', 'simple-graphemes.ts'));
        return {
          contents: `import { simpleFirstSegmenter } from ${helper};\n${code.replace('new Intl.Segmenter(', 'simpleFirstSegmenter(')}`,
          resolveDir: dirname(args.path),
          loader: 'js',
        };
      });
  },
};

// What an absent claw.json validates to, and an id of the code that decides
// what any claw.json validates to (source/config/validated-config-cache.ts
// keeps the last validation under it): a new build with a changed schema
// never trusts an old answer.
async function configValidation(dist) {
  const hash = createHash('sha256');
  for (const file of [...sourceFiles(join(source, 'config')), ...sourceFiles(join(source, 'protocol'))].sort()) hash.update(file).update(readFileSync(file));
  hash.update(readFileSync(join(root, 'node_modules', 'zod', 'package.json')));
  const { validateConfig } = await import(`${pathToFileURL(join(dist, 'config', 'config-file.js')).href}?build=${Date.now()}`);
  return {
    CLAW_CONFIG_SCHEMA_ID: JSON.stringify(hash.digest('hex').slice(0, 32)),
    CLAW_CONFIG_DEFAULTS: JSON.stringify(JSON.stringify(validateConfig({}, 'the defaults'))),
  };
}

// claw's own modules run no code at import beyond defining what they export,
// so a module none of whose exports a chunk uses can be left out of it. Without
// this, importing one name through a subsystem's index.ts pulls every file the
// index re-exports (and every zod schema they build) into `claw status`.
const sourceWithoutSideEffects = {
  name: 'source-without-side-effects',
  setup(build) {
    build.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData === 'resolving' || !args.importer.startsWith(source)) return undefined;
      const result = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' });
      if (result.errors.length > 0 || !result.path.startsWith(source)) return undefined;
      return { ...result, sideEffects: false };
    });
  },
};

// Commands bundled on their own, without code splitting. esbuild puts a shared
// module in the chunks of every entry that can reach it through imports, used
// or not; `claw status` reaches the whole of config/ and protocol/ through
// their index.ts (and with them zod), so split it would load ten times the
// code it runs. A standalone bundle is tree-shaken to what the command uses.
// Only commands that catch their own errors belong here: a ClawError class of
// their bundle is not the one report-error.ts checks for. They are CommonJS,
// so the executable can require `claw status` without starting the ES module
// loader (see source/cli/bin.ts).
const standaloneCommands = ['status'];
const standaloneFile = (name) => `chunks/${name}-command`;

const loadStandaloneCommands = {
  name: 'standalone-commands',
  setup(build) {
    const names = standaloneCommands.map((name) => `./commands/${name}.js`);
    build.onResolve({ filter: /^\.\/commands\// }, (args) =>
      args.importer === join(source, 'cli', 'command-table.ts') && names.includes(args.path)
        ? // dist/cli/ and dist/chunks/ are siblings, so this resolves from either.
          { path: `../${standaloneFile(args.path.slice('./commands/'.length, -'.js'.length))}.cjs`, external: true }
        : undefined,
    );
  },
};

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// yaml (160 KB) parses only HOOK.md and SKILL.md front matter, read after the
// gateway listens; source/config/yaml.ts requires it on first use from a file
// of its own, so no chunk of the start-up graph holds it. Required, not
// imported: a skill asked for before that still parses synchronously.
const bundledYaml = { CLAW_BUNDLED_YAML: '"../chunks/yaml.cjs"' };

// highlight.js (200 KB with its common languages) colours code blocks in the
// TUI: required by source/markdown/highlight.ts with the first code block
// that names a language, from a file of its own, like yaml.
const bundledHighlight = { CLAW_BUNDLED_HIGHLIGHT: '"../chunks/highlight.cjs"' };

// Comments and indentation are a third of the bundle, and V8 keeps every
// loaded chunk's source in memory: stripped, and with non-ASCII escaped (one
// such character stores a whole chunk at two bytes per character), the idle
// gateway holds 1.3 MB less. Stack frames keep their names; dist/**/*.map
// maps positions back to source/.
const common = {
  platform: 'node',
  target: 'node20',
  format: 'esm',
  jsx: 'automatic',
  logLevel: 'warning',
  legalComments: 'none',
  charset: 'ascii',
  minifyWhitespace: true,
};

// CommonJS has no import.meta; the file's own URL stands in for it.
const cjsImportMetaUrl = 'const __clawImportMetaUrl = require("node:url").pathToFileURL(__filename).href;';

// What every CommonJS output shares (the bundles of commands, the executable, yaml).
const commonjs = { ...common, format: 'cjs', outdir: dist, outExtension: { '.js': '.cjs' }, bundle: true, sourcemap: 'linked' };
const commonjsDefine = { 'process.env.NODE_ENV': '"production"', 'import.meta.url': '__clawImportMetaUrl', ...bundledYaml, ...bundledHighlight };

// `claw gateway run` as CommonJS bundles, each written as a function
// expression of the CommonJS wrapper's arguments: source/cli/code-cache.ts
// compiles them with V8's code cache, which Node 20 offers for scripts but
// not for ES modules. gateway-run.cjs holds the daemon; the big packages it
// uses for one feature only are bundles of their own, required (and cached)
// on first use, so an idle gateway does not hold their source. They must be
// ASCII (read as latin1, which Node keeps outside V8's heap).
const gatewayBundle = 'chunks/gateway-run';
const gatewayVendors = ['grammy', 'turndown', 'linkedom', '@mozilla/readability', 'execa', 'flexsearch', 'croner', 'yaml'];
const vendorBundle = (name) => `chunks/${vendorFile(name)}`;
const zodBundle = vendorBundle('zod');

const codeCachedBundle = {
  ...commonjs,
  external,
  banner: { js: `(function (exports, require, module, __filename, __dirname) {"use strict";${cjsImportMetaUrl}` },
  footer: { js: '})' },
  metafile: true,
};

// `claw` (the TUI) is a code-cached bundle too (see synchronousYoga in commonjs-bundles.mjs).
const tuiBundle = 'chunks/tui-run';

export async function build() {
  rmSync(dist, { recursive: true, force: true });
  await esbuild.build({
    ...common,
    // bin.ts is CommonJS (it requires the status command); it is built once, below.
    entryPoints: sourceFiles(source).filter((file) => file !== join(source, 'cli', 'bin.ts')),
    outdir: dist,
    outbase: source,
    bundle: false,
    sourcemap: 'linked',
  });
  const help = await helpTextModule(root);
  const validation = await configValidation(dist);
  const split = await esbuild.build({
    ...common,
    entryPoints: { 'cli/main': join(source, 'cli', 'main.ts') },
    outdir: dist,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    external,
    banner: { js: banner },
    // React and Ink ship a development build selected at run time; users run the production one.
    define: { 'process.env.NODE_ENV': '"production"', ...bundledYaml, ...bundledHighlight, ...validation },
    plugins: [help, englishOnlyZod, lazyBuiltinsInWs, simpleFirstStringWidth, simpleFirstGraphemes, sourceWithoutSideEffects, loadStandaloneCommands],
    sourcemap: 'linked',
    metafile: true,
  });
  const alone = await esbuild.build({
    ...commonjs,
    entryPoints: Object.fromEntries(standaloneCommands.map((name) => [standaloneFile(name), join(source, 'cli', 'commands', `${name}.ts`)])),
    external,
    banner: { js: `"use strict";${cjsImportMetaUrl}` },
    define: commonjsDefine,
    plugins: [englishOnlyZod, lazyBuiltinsInWs, sourceWithoutSideEffects],
    metafile: true,
  });
  const gateway = await esbuild.build({
    ...codeCachedBundle,
    entryPoints: {
      [gatewayBundle]: join(source, 'cli', 'gateway-run.ts'),
      ...Object.fromEntries(gatewayVendors.map((name) => [vendorBundle(name), `claw-vendor:${name}`])),
      [zodBundle]: zodVendorEntry,
    },
    define: { ...commonjsDefine, ...validation, CLAW_BUNDLED_YAML: '"./vendor-yaml.cjs"', CLAW_BUNDLE_REQUIRE: 'require' },
    plugins: [
      vendorsApart(gatewayVendors),
      zodApart(source),
      asciiSource(/[\\/]@mozilla[\\/]readability[\\/].*\.js$/),
      englishOnlyZod,
      lazyBuiltinsInWs,
      deferredBuiltins(source),
      sourceWithoutSideEffects,
    ],
  });
  const tui = await esbuild.build({
    ...codeCachedBundle,
    entryPoints: { [tuiBundle]: join(source, 'cli', 'tui-run.ts') },
    define: { ...commonjsDefine, ...validation },
    plugins: [
      synchronousYoga,
      englishOnlyZod,
      lazyBuiltinsInWs,
      deferredBuiltins(source),
      simpleFirstStringWidth,
      simpleFirstGraphemes,
      sourceWithoutSideEffects,
    ],
  });
  const codeCachedIds = Object.fromEntries(
    [gatewayBundle, tuiBundle, zodBundle, ...gatewayVendors.map(vendorBundle)].map((name) => [
      basename(`${name}.cjs`),
      asciiContentId(join(dist, `${name}.cjs`)),
    ]),
  );
  await esbuild.build({ ...commonjs, entryPoints: { 'chunks/yaml': createRequire(import.meta.url).resolve('yaml') } });
  await esbuild.build({ ...commonjs, entryPoints: { 'chunks/highlight': createRequire(import.meta.url).resolve('highlight.js/lib/common') } });
  // The executable: CommonJS, so `claw --help` skips the ES module loader's start; it imports main.js for the rest.
  await esbuild.build({
    ...commonjs,
    entryPoints: { 'cli/claw': join(source, 'cli', 'bin.ts') },
    external: ['./main.js', ...standaloneCommands.map((name) => `../${standaloneFile(name)}.cjs`)],
    banner: { js: `#!/usr/bin/env node\n${cjsImportMetaUrl}` },
    define: {
      'import.meta.url': '__clawImportMetaUrl',
      CLAW_CODE_CACHED_BUNDLES: JSON.stringify(codeCachedIds),
    },
    plugins: [help, sourceWithoutSideEffects],
  });
  const metafiles = [split, alone, gateway, tui].map((result) => result.metafile);
  const meta = {
    inputs: Object.assign({}, ...metafiles.map((m) => m.inputs)),
    outputs: Object.assign({}, ...metafiles.map((m) => m.outputs)),
  };
  writeFileSync(join(dist, 'meta.json'), JSON.stringify(meta));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await build();
}
