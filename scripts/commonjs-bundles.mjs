// esbuild plugins and checks for the code-cached CommonJS bundles of
// scripts/build.mjs (`claw gateway run`, its vendor bundles, `claw`): what
// makes each package fit a CommonJS bundle that source/cli/code-cache.ts
// compiles with V8's code cache.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// The daemon spawns processes and resolves names only once it runs (exec, MCP
// over stdio, web_fetch), and reaches for fs/promises and perf_hooks only in
// a turn or under systemd; loading those built-ins was ~5.5 ms of its start.
// The TUI needs child_process only to start a gateway, and crypto not before
// it is connected.
// In its bundle each is an ES module of the same exports that requires the
// real one at the first call (a CommonJS stand-in would be copied key by key,
// loading it at once, wherever an ES module imports it). Functions, constant
// values and plain data (`constants`) can be stood in for; any other object
// (perf_hooks' `performance`) is left out, so importing it fails the build.
function isPlainData(value) {
  const prototype = Object.getPrototypeOf(value);
  return (prototype === null || prototype === Object.prototype) && Object.values(value).every((item) => typeof item === 'number' || typeof item === 'string');
}

function deferredBuiltin(name) {
  const real = createRequire(import.meta.url)(`node:${name}`);
  const lines = ['let real;', `const load = () => (real ??= require('node:${name}'));`];
  for (const [key, value] of Object.entries(real)) {
    if (typeof value === 'function')
      lines.push(`export function ${key}(...args) { return new.target ? Reflect.construct(load().${key}, args) : load().${key}.apply(this, args); }`);
    else if (value === null || typeof value !== 'object' || isPlainData(value)) lines.push(`export const ${key} = ${JSON.stringify(value)};`);
  }
  return lines.join('\n');
}

// Packages whose use of a built-in is only calls, checked by reading them:
// terminal-size (Ink's) runs `tput` through child_process only when the
// terminal does not say its size.
const deferringPackages = /[\\/]node_modules[\\/]terminal-size[\\/]/;

/** The stand-ins, for imports from files under `source` (claw's own code) and deferringPackages. */
export function deferredBuiltins(source) {
  return {
    name: 'deferred-builtins',
    setup(build) {
      // Not for packages at large: one may test `instanceof` a class, which a stand-in is not.
      build.onResolve({ filter: /^(node:)?(child_process|crypto|dns\/promises|fs\/promises|perf_hooks)$/ }, (args) =>
        args.importer.startsWith(source) || deferringPackages.test(args.importer)
          ? { path: args.path.replace(/^node:/, ''), namespace: 'deferred-builtin' }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'deferred-builtin' }, (args) => ({ contents: deferredBuiltin(args.path), loader: 'js' }));
    },
  };
}

/**
 * Packages that write non-ASCII characters in regular expression literals
 * (Readability's "广告", "»"), which esbuild's ascii charset leaves as they
 * are: every non-ASCII UTF-16 unit is written as a \u escape, which means
 * the same thing in a regular expression, a string or a comment.
 */
export function asciiSource(filter) {
  return {
    name: 'ascii-source',
    setup(build) {
      build.onLoad({ filter }, async (args) => ({
        contents: (await readFile(args.path, 'utf8')).replace(/[^\x00-\x7f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`),
        loader: 'js',
      }));
    },
  };
}

/** A vendor bundle's file name: a scoped package's `@` and `/` dropped (`@mozilla/readability` → `vendor-mozilla-readability`). */
export function vendorFile(name) {
  return `vendor-${name.replace(/^@/, '').replace(/\//g, '-')}`;
}

// In gateway-run.cjs, an import of a vendor package is a require of its
// bundle (code-cache.ts serves `./vendor-*.cjs` from its cache), static or
// dynamic; a vendor bundle's entry is the package's whole namespace.
export function vendorsApart(vendors) {
  return {
    name: 'vendors-apart',
    setup(build) {
      const names = new RegExp(`^(${vendors.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);
      build.onResolve({ filter: names }, (args) => (args.namespace === 'claw-vendor' ? undefined : { path: args.path, namespace: 'vendor-require' }));
      build.onLoad({ filter: /.*/, namespace: 'vendor-require' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./${vendorFile(args.path)}.cjs`)});`,
        loader: 'js',
      }));
      build.onResolve({ filter: /^\.\/vendor-/ }, (args) => (args.namespace === 'vendor-require' ? { path: args.path, external: true } : undefined));
      build.onResolve({ filter: /^claw-vendor:/ }, (args) => ({ path: args.path.slice('claw-vendor:'.length), namespace: 'claw-vendor' }));
      build.onLoad({ filter: /.*/, namespace: 'claw-vendor' }, async (args) => {
        const hasDefault = (await import(args.path)).default !== undefined;
        const from = JSON.stringify(args.path);
        return { contents: `export * from ${from};${hasDefault ? `export { default } from ${from};` : ''}`, resolveDir: root, loader: 'js' };
      });
    },
  };
}

// zod is a bundle of its own too (vendor-zod.cjs), holding every zod entry
// the daemon or a package of it imports, so one copy of zod serves them all.
// Building its ~200 classes was ~4 ms of the gateway's start, before any
// schema was used (schemas are built on first use: lazySchema), so claw's own
// `import { z } from 'zod'` gets a stand-in that requires the bundle at the
// first use of \`z\`; a package's import requires it when the package loads.
const zodEntries = { zod: 'zod', 'zod/v4': 'v4', 'zod/v3': 'v3', 'zod/v4-mini': 'mini', 'zod/v4/core': 'core' };
export const zodVendorEntry = 'claw-zod-vendor';

// The namespace is required on first use the way a schema is built on first use.
const lazyZ = `import { lazySchema } from ${JSON.stringify(join(root, 'source', 'protocol', 'lazy-schema.ts'))};
export const z = lazySchema(() => require('./vendor-zod.cjs').zod.z);`;

export function zodApart(source) {
  return {
    name: 'zod-apart',
    setup(build) {
      build.onResolve({ filter: /^zod(\/.*)?$/ }, (args) => {
        if (args.namespace === 'zod-vendor' || /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
        if (!Object.hasOwn(zodEntries, args.path))
          return { errors: [{ text: `${args.importer} imports ${args.path}, which zodEntries (scripts/commonjs-bundles.mjs) does not hold` }] };
        return { path: args.path, namespace: args.path === 'zod' && args.importer.startsWith(source) ? 'zod-lazy' : 'zod-require' };
      });
      build.onLoad({ filter: /.*/, namespace: 'zod-lazy' }, () => ({ contents: lazyZ, resolveDir: root, loader: 'js' }));
      build.onLoad({ filter: /.*/, namespace: 'zod-require' }, (args) => ({
        contents: `module.exports = require('./vendor-zod.cjs').${zodEntries[args.path]};`,
        loader: 'js',
      }));
      build.onResolve({ filter: /^\.\/vendor-zod\.cjs$/ }, (args) => (args.namespace.startsWith('zod-') ? { path: args.path, external: true } : undefined));
      build.onResolve({ filter: new RegExp(`^${zodVendorEntry}$`) }, () => ({ path: 'zod', namespace: 'zod-vendor' }));
      build.onLoad({ filter: /.*/, namespace: 'zod-vendor' }, () => ({
        contents: Object.entries(zodEntries)
          .map(([entry, key]) => `export * as ${key} from '${entry}';`)
          .join('\n'),
        resolveDir: root,
        loader: 'js',
      }));
    },
  };
}

// Ink's layout engine, yoga, instantiates its WebAssembly with a top-level
// await, which CommonJS cannot hold; Node compiles and instantiates it
// synchronously just as well, through the instantiateWasm hook of yoga's
// Emscripten loader, which then finishes initialising before it returns.
export const synchronousYoga = {
  name: 'synchronous-yoga',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, () => ({
      contents: [
        "import loadYoga, { wasmBase64 } from '../binaries/yoga-wasm-base64-esm.js';",
        "import wrapAssembly from './wrapAssembly.js';",
        "const wasm = new WebAssembly.Module(Buffer.from(wasmBase64, 'base64'));",
        'const loader = { instantiateWasm: (imports, receive) => receive(new WebAssembly.Instance(wasm, imports)) };',
        'loadYoga(loader);',
        "if (!loader.calledRun) throw new Error('yoga-layout did not initialise synchronously');",
        'export default wrapAssembly(loader);',
        "export * from './generated/YGEnums.js';",
      ].join('\n'),
      loader: 'js',
    }));
    // Ink awaits at the top level only with DEV=true (React devtools): there it requires them instead.
    build.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (args) => {
      const code = readFileSync(args.path, 'utf8');
      const patched = code
        .replace("await import('./devtools.js');", "require('./devtools.js');")
        .replace('? await loadPackageJson()', "? { name: 'ink', version: undefined }");
      if (patched.includes("await import('./devtools.js')") || patched.includes('await loadPackageJson()') || !patched.includes("require('./devtools.js')"))
        throw new Error(`${args.path}: Ink's top-level awaits changed; see synchronousYoga in scripts/commonjs-bundles.mjs`);
      return { contents: patched, loader: 'js' };
    });
    // The loader's own copy of the binary is the only one: it is also exported.
    build.onLoad({ filter: /[\\/]node_modules[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (args) => {
      const code = readFileSync(args.path, 'utf8');
      const uri = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/.exec(code);
      if (!uri) throw new Error(`${args.path}: no embedded WebAssembly found; yoga-layout changed, see synchronousYoga in scripts/commonjs-bundles.mjs`);
      return {
        contents: `const wasmBase64 = ${JSON.stringify(uri[1])};\nexport { wasmBase64 };\n${code.replace(uri[0], '"data:application/octet-stream;base64," + wasmBase64')}`,
        loader: 'js',
      };
    });
  },
};

/** The content hash the executable keys a bundle's code cache by; the bundle must be ASCII. */
export function asciiContentId(file) {
  const code = readFileSync(file);
  const nonAscii = code.findIndex((byte) => byte > 0x7f);
  if (nonAscii !== -1) {
    const line = code.subarray(0, nonAscii).toString('latin1').split('\n').length;
    throw new Error(`${file} line ${line}: a non-ASCII character esbuild left as is (in a regular expression literal?); write it as a \\u{...} escape`);
  }
  return createHash('sha256').update(code).digest('hex').slice(0, 32);
}
