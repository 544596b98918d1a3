/**
 * A schema built on first use. The protocol declares well over a thousand zod
 * nodes, and building them is most of what importing it costs (time, and a
 * closure per method per node); a process validates few of them, and a
 * gateway none before its first client. The proxy forwards every operation
 * to the schema, which is built once, at the first one. The gateway's bundle
 * stands in for zod's `z` with one too (scripts/commonjs-bundles.mjs).
 */
const targets = new WeakMap<object, () => object>();

/** The schema behind a `lazySchema` proxy (built now if it was not), or `value` itself. */
export function resolveLazy<T>(value: T): T {
  const real = typeof value === 'object' && value !== null ? targets.get(value) : undefined;
  return real ? (real() as T) : value;
}

export function lazySchema<T extends object>(build: () => T): T {
  let schema: T | undefined;
  const real = (): T => {
    schema ??= build();
    return schema;
  };
  const proxy = new Proxy({} as T, {
    get: (_target, key) => Reflect.get(real(), key),
    set: (_target, key, value) => Reflect.set(real(), key, value),
    has: (_target, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    // Reported configurable: the proxy's own (empty) target must not contradict what it describes.
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
      return descriptor ? { ...descriptor, configurable: true } : undefined;
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
  targets.set(proxy, real);
  return proxy;
}
