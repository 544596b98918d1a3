// The process one plugin runs in (source/plugins/README.md). claw starts it
// inside bubblewrap and Node's permission model; it loads the plugin's entry,
// hands `setup` the ctx, and speaks newline-delimited JSON-RPC with claw on
// stdin/stdout. Plain JavaScript with no imports but Node's own: it must run
// before anything of the plugin and be readable inside the sandbox as is.
import { pathToFileURL } from 'node:url';

const protocolOut = process.stdout.write.bind(process.stdout);
// A plugin that prints must not corrupt the channel: its stdout becomes its log.
process.stdout.write = (chunk, encoding, callback) => process.stderr.write(chunk, encoding, callback);
console.log = console.info = console.debug = (...args) => process.stderr.write(`${args.map(String).join(' ')}\n`);

const send = (message) => protocolOut(`${JSON.stringify(message)}\n`);
const pending = new Map();
let nextId = 1;

function request(method, params) {
  const id = `c${nextId++}`;
  send({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

const notify = (method, params) => send({ method, params });

const log = {
  debug: (message) => notify('log', { level: 'debug', message: String(message) }),
  info: (message) => notify('log', { level: 'info', message: String(message) }),
  warn: (message) => notify('log', { level: 'warn', message: String(message) }),
  error: (message) => notify('log', { level: 'error', message: String(message) }),
};

const bodies = new Map();
// A body's first chunks can be read off the pipe before the fetch that owns it resumed: they wait here.
const early = new Map();
const NULL_BODY = new Set([101, 204, 205, 304]);

function bodyEvent(stream, event) {
  const controller = bodies.get(stream);
  if (!controller) {
    early.set(stream, [...(early.get(stream) ?? []), event]);
    return;
  }
  if (event.data !== undefined) return controller.enqueue(new Uint8Array(Buffer.from(event.data, 'base64')));
  bodies.delete(stream);
  if (event.error) controller.error(new Error(event.error));
  else controller.close();
}

/**
 * fetch, through claw: the sandbox has no network, so the gateway makes (and
 * checks) every request; the body arrives as it streams.
 */
async function clawFetch(input, init = {}) {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = (init.method ?? (typeof input === 'object' && 'method' in input ? input.method : 'GET')).toUpperCase();
  const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
  let body;
  if (init.body !== undefined && init.body !== null)
    body = Buffer.from(typeof init.body === 'string' ? init.body : new Uint8Array(await new Response(init.body).arrayBuffer())).toString('base64');
  init.signal?.throwIfAborted();
  const answer = await request('fetch', { url, method, headers, ...(body ? { body } : {}) });
  let open = true;
  const stop = () => {
    bodies.delete(answer.stream);
    early.delete(answer.stream);
    if (open) notify('fetch.cancel', { stream: answer.stream });
    open = false;
  };
  if (NULL_BODY.has(answer.status) || method === 'HEAD') {
    stop();
    return new Response(null, { status: answer.status, headers: answer.headers });
  }
  const stream = new ReadableStream({
    start(controller) {
      bodies.set(answer.stream, controller);
      const waiting = early.get(answer.stream) ?? [];
      early.delete(answer.stream);
      for (const event of waiting) {
        if (event.data === undefined) open = false;
        bodyEvent(answer.stream, event);
      }
      init.signal?.addEventListener('abort', () => {
        if (!bodies.has(answer.stream)) return;
        stop();
        controller.error(init.signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'));
      });
    },
    cancel: stop,
  });
  return new Response(stream, { status: answer.status, headers: answer.headers });
}
globalThis.fetch = clawFetch;

const state = {
  manifest: undefined,
  config: {},
  secrets: {},
  tools: new Map(),
  commands: new Map(),
  hooks: new Map(),
  providers: new Map(),
  dispose: undefined,
  setupDone: false,
};
const controllers = new Map();

function declared(kind, name) {
  const list = state.manifest.contributes[kind] ?? [];
  if (!list.includes(name))
    throw new Error(`${kind.slice(0, -1)} "${name}" is not declared in claw.plugin.json contributes.${kind}; declare every name the plugin registers.`);
  if (state.setupDone) throw new Error(`register ${kind.slice(0, -1)}s during setup(ctx), not later.`);
}

const EFFECTS = ['read', 'write', 'net', 'exec', 'message'];

const ctx = {
  tools: {
    register(tool) {
      declared('tools', tool?.name);
      if (typeof tool.run !== 'function') throw new Error(`tool "${tool.name}" needs a run(args, helpers) function.`);
      const effect = tool.effect ?? 'read';
      if (!EFFECTS.includes(effect)) throw new Error(`tool "${tool.name}": effect must be one of ${EFFECTS.join(', ')}.`);
      state.tools.set(tool.name, { ...tool, effect });
    },
  },
  commands: {
    register(command) {
      declared('commands', command?.name);
      if (typeof command.run !== 'function') throw new Error(`command "${command.name}" needs a run(args, reply) function.`);
      state.commands.set(command.name, command);
    },
  },
  hooks: {
    on(event, handler) {
      declared('hooks', event);
      if (typeof handler !== 'function') throw new Error(`hook "${event}" needs a handler function.`);
      const list = state.hooks.get(event) ?? [];
      list.push(handler);
      state.hooks.set(event, list);
    },
  },
  providers: {
    register(provider) {
      declared('providers', provider?.id);
      if (typeof provider.stream !== 'function' || typeof provider.models !== 'function')
        throw new Error(`provider "${provider.id}" needs models() and stream(request, { signal }).`);
      state.providers.set(provider.id, provider);
    },
  },
  channels: {
    register(adapter) {
      declared('channels', adapter?.id);
      throw new Error('channels from plugins are not supported by this claw yet; contribute tools, commands, hooks or providers.');
    },
  },
  get config() {
    return state.config;
  },
  secrets: {
    get(name) {
      if (!state.manifest.permissions.secrets.includes(name)) throw new Error(`secret "${name}" is not declared in claw.plugin.json permissions.secrets.`);
      return state.secrets[name];
    },
  },
  storage: {
    get: (key) => request('storage.get', { key }).then((answer) => answer.value),
    set: (key, value) => request('storage.set', { key, value }).then(() => undefined),
    delete: (key) => request('storage.delete', { key }).then(() => undefined),
    keys: () => request('storage.keys', {}).then((answer) => answer.keys),
  },
  fetch: clawFetch,
  log,
};

function describeError(error) {
  return { message: error instanceof Error ? error.message : String(error) };
}

function toolOutput(value) {
  if (typeof value === 'string') return { content: value, isError: false };
  if (value && typeof value === 'object' && typeof value.content === 'string') return { content: value.content, isError: value.isError === true };
  return { content: JSON.stringify(value ?? null), isError: false };
}

function withSignal(callId, run) {
  const controller = new AbortController();
  controllers.set(callId, controller);
  return Promise.resolve()
    .then(() => run(controller.signal))
    .finally(() => controllers.delete(callId));
}

const methods = {
  async initialize({ manifest, entry, config, secrets }) {
    state.manifest = manifest;
    state.config = config ?? {};
    state.secrets = secrets ?? {};
    const module = await import(pathToFileURL(entry).href);
    const plugin = module.default;
    if (!plugin || typeof plugin.setup !== 'function') throw new Error(`${manifest.entry} must export default { id, setup(ctx) }.`);
    if (plugin.id !== manifest.id) throw new Error(`${manifest.entry} says its id is "${plugin.id}", the manifest "${manifest.id}".`);
    const dispose = await plugin.setup(ctx);
    if (typeof dispose === 'function') state.dispose = dispose;
    state.setupDone = true;
    const providers = [];
    for (const [id, provider] of state.providers) providers.push({ id, models: await provider.models() });
    return {
      tools: [...state.tools.values()].map((tool) => ({
        name: tool.name,
        description: String(tool.description ?? ''),
        inputSchema: tool.inputSchema ?? { type: 'object', properties: {} },
        effect: tool.effect,
      })),
      commands: [...state.commands.values()].map((command) => ({ name: command.name, description: String(command.description ?? '') })),
      hooks: [...state.hooks.keys()],
      providers,
    };
  },
  'tool.call': ({ callId, name, args }) =>
    withSignal(callId, async (signal) => {
      const tool = state.tools.get(name);
      if (!tool) throw new Error(`no tool "${name}"`);
      const progress = (text) => notify('tool.progress', { callId, text: String(text) });
      return toolOutput(await tool.run(args, { signal, progress, log }));
    }),
  async 'command.run'({ name, args }) {
    const command = state.commands.get(name);
    if (!command) throw new Error(`no command "${name}"`);
    const parts = [];
    const returned = await command.run(args, (text) => parts.push(String(text)));
    if (typeof returned === 'string') parts.push(returned);
    return { reply: parts.join('\n') };
  },
  async 'hook.run'({ event, payload }) {
    let verdict = null;
    for (const handler of state.hooks.get(event) ?? []) {
      const answer = await handler(payload);
      if (answer && typeof answer === 'object' && answer.block === true) return { block: true, reason: String(answer.reason ?? '') };
      if (answer && typeof answer === 'object' && typeof answer.bootstrap === 'string') verdict = { bootstrap: answer.bootstrap };
    }
    return verdict;
  },
  'provider.stream': ({ callId, provider: id, request: call }) =>
    withSignal(callId, async (signal) => {
      const provider = state.providers.get(id);
      if (!provider) throw new Error(`no provider "${id}"`);
      try {
        for await (const delta of provider.stream(call, { signal })) notify('provider.delta', { callId, delta });
        return { done: true };
      } catch (error) {
        const kind = typeof provider.classifyError === 'function' ? provider.classifyError(error) : undefined;
        throw Object.assign(new Error(describeError(error).message), { kind });
      }
    }),
  async shutdown() {
    await state.dispose?.();
    return {};
  },
};

const notifications = {
  cancel: ({ callId }) => controllers.get(callId)?.abort(),
  'fetch.chunk': ({ stream, data }) => bodyEvent(stream, { data }),
  'fetch.end': ({ stream, error }) => bodyEvent(stream, { error }),
  'config.update': ({ config }) => {
    state.config = config ?? {};
  },
};

async function handle(message) {
  if (message.id !== undefined && !message.method) {
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error) waiter?.reject(new Error(message.error.message));
    else waiter?.resolve(message.result);
    return;
  }
  if (message.id === undefined) {
    notifications[message.method]?.(message.params ?? {});
    return;
  }
  const method = methods[message.method];
  try {
    if (!method) throw new Error(`unknown method ${message.method}`);
    const result = await method(message.params ?? {});
    send({ id: message.id, result: result ?? null });
    if (message.method === 'shutdown') process.exit(0);
  } catch (error) {
    send({ id: message.id, error: { ...describeError(error), ...(error?.kind ? { kind: error.kind } : {}) } });
  }
}

let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let newline = buffer.indexOf('\n'); newline >= 0; newline = buffer.indexOf('\n')) {
    const line = buffer.slice(0, newline);
    buffer = buffer.slice(newline + 1);
    if (line.trim()) void handle(JSON.parse(line));
  }
});
process.stdin.on('end', () => process.exit(0));
