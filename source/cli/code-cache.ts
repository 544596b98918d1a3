import { mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script, constants } from 'node:vm';

/** What a bundle built as one function expression (scripts/build.mjs, `codeCachedBundle`) is called with. */
type BundleFunction = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

interface LoadedBundle {
  exports: object;
  script: Script;
  header: Buffer;
  cacheFile: string;
  /** The cache was missing or V8 refused it. */
  stale: boolean;
}

/**
 * Node 20 keeps no compiled code between runs of an ES module, and compiling
 * was about half of the gateway's start and of the TUI's. `claw gateway run`
 * and `claw` are therefore CommonJS bundles (scripts/build.mjs) compiled here
 * with V8's code cache, kept in the state dir's `cache/code/` (0700, as the
 * rest of it): the daemon's and the TUI's at start, each big package the
 * daemon uses for one feature (Telegram, web_fetch, exec, search, cron) when
 * the daemon first requires it.
 *
 * A cache is trusted as code, so it is only ever read from that private
 * folder, and used only when its header names this exact file: the build's
 * content hash, its size and modification time, and Node's version. V8 then
 * checks its own version and flags and refuses a cache that does not fit;
 * the bundle is compiled from source and its cache written again.
 *
 * Bundles are ASCII (the build checks) and read as latin1: Node keeps a large
 * latin1 string outside V8's heap, where a UTF-8 one would be copied in.
 */
export class CodeCachedBundles {
  readonly #loaded = new Map<string, LoadedBundle>();
  #savesAtExit = false;

  /** `buildIds`: each bundle's file name in `dir` and the content hash the build gave it. */
  constructor(
    private readonly dir: string,
    private readonly buildIds: Readonly<Record<string, string>>,
    private readonly cacheDir: string,
  ) {}

  require<Exports>(name: string): Exports {
    const loaded = this.#loaded.get(name) ?? this.#load(name);
    return loaded.exports as Exports;
  }

  /**
   * Writes the cache of every bundle loaded so far whose cache was missing or
   * refused, with V8's code for each function compiled by then: called once
   * start-up is done, so the next start finds what it runs compiled. A bundle
   * loaded later is written when the process exits.
   */
  save(): void {
    for (const bundle of this.#loaded.values()) this.#write(bundle);
    if (!this.#savesAtExit) process.once('exit', () => this.save());
    this.#savesAtExit = true;
  }

  #load(name: string): LoadedBundle {
    const buildId = this.buildIds[name];
    if (buildId === undefined) throw new Error(`${name} is not one of this build's bundles`);
    const file = join(this.dir, name);
    const { size, mtimeMs } = statSync(file);
    const header = Buffer.from(`claw-code-cache ${buildId} ${size} ${Math.trunc(mtimeMs)} ${process.version} ${process.arch}\n`);
    const cacheFile = join(this.cacheDir, `${basename(name, '.cjs')}.bin`);
    const cached = readCache(cacheFile, header);
    const script = new Script(readFileSync(file, 'latin1'), {
      filename: file,
      ...(cached ? { cachedData: cached } : {}),
      // User hook handlers are imported by URL from inside the bundle.
      importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    const bundle: LoadedBundle = { exports: {}, script, header, cacheFile, stale: cached === undefined || script.cachedDataRejected === true };
    this.#loaded.set(name, bundle);
    const module = { exports: bundle.exports };
    (script.runInThisContext() as BundleFunction)(module.exports, this.#requireFrom(file), module, file, dirname(file));
    bundle.exports = module.exports;
    return bundle;
  }

  /** Node's require for the bundle's file, except that a sibling bundle comes from here (and its cache). */
  #requireFrom(file: string): NodeJS.Require {
    const nodeRequire = createRequire(file);
    const bundleRequire = (id: string): unknown => {
      const name = id.startsWith('./') ? id.slice(2) : undefined;
      return name !== undefined && Object.hasOwn(this.buildIds, name) ? this.require(name) : nodeRequire(id);
    };
    return Object.assign(bundleRequire, nodeRequire);
  }

  #write(bundle: LoadedBundle): void {
    if (!bundle.stale) return;
    bundle.stale = false;
    writeAtomically(bundle.cacheFile, Buffer.concat([bundle.header, bundle.script.createCachedData()]));
  }
}

function readCache(cacheFile: string, header: Buffer): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  return data.subarray(0, header.length).equals(header) ? data.subarray(header.length) : undefined;
}

/**
 * A start that reads while another writes sees the old cache or the new one;
 * a failure costs only speed. Not config's writeFileAtomicSync: through
 * config/index.ts it would make the executable load node:crypto for
 * `claw --help`, and a cache needs no fsync.
 */
function writeAtomically(file: string, data: Buffer): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, data, { mode: 0o600 });
    renameSync(temporary, file);
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // A folder that refused the write may refuse this too; the next save uses its own name.
    }
  }
}

/** Where the code caches live in a state dir. */
export function codeCacheDir(stateDir: string): string {
  return join(stateDir, 'cache', 'code');
}
