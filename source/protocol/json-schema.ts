import { z } from 'zod';
import { resolveLazy } from './lazy-schema.js';
import { events, methods, type EventName, type MethodName } from './registry.js';
import { PROTOCOL_VERSION } from './protocol-version.js';
import { gatewaySnapshot } from './snapshot.js';

type JsonObject = Record<string, unknown>;

const BuiltinMap = globalThis.Map;

/**
 * A Map that files a lazy schema's proxy under the schema itself. zod's
 * converter keys what it has seen by identity, and meets the same schema
 * both as the proxy (from a parent's definition) and as itself (inside its
 * own processor).
 */
class LazyAwareMap<K, V> extends BuiltinMap<K, V> {
  override get(key: K): V | undefined {
    return super.get(resolveLazy(key));
  }
  override set(key: K, value: V): this {
    return super.set(resolveLazy(key), value);
  }
  override has(key: K): boolean {
    return super.has(resolveLazy(key));
  }
  override delete(key: K): boolean {
    return super.delete(resolveLazy(key));
  }
}

function toJson(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  // The converter makes its seen-map with `new Map()`: for this synchronous call, that is a LazyAwareMap.
  globalThis.Map = LazyAwareMap as MapConstructor;
  try {
    const json = z.toJSONSchema(resolveLazy(schema), { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonObject;
    delete json.$schema;
    return json;
  } finally {
    globalThis.Map = BuiltinMap;
  }
}

/**
 * The whole protocol as JSON Schema: every method's params (as a client
 * sends them) and result (as the gateway answers), every event's payload,
 * the hello snapshot, with scopes and descriptions. Checked in as
 * `protocol.schema.json`; a test fails when the two disagree.
 */
export function protocolJsonSchema(): JsonObject {
  const methodNames = Object.keys(methods).sort() as MethodName[];
  const eventNames = Object.keys(events).sort() as EventName[];
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'claw gateway protocol',
    protocolVersion: PROTOCOL_VERSION,
    methods: Object.fromEntries(
      methodNames.map((name) => {
        const spec = methods[name];
        return [
          name,
          {
            description: spec.description,
            scope: spec.scope,
            mutating: spec.mutating,
            params: toJson(spec.params, 'input'),
            result: toJson(spec.result, 'output'),
          },
        ];
      }),
    ),
    events: Object.fromEntries(
      eventNames.map((name) => {
        const spec = events[name];
        return [name, { description: spec.description, scope: spec.scope, payload: toJson(spec.payload, 'output') }];
      }),
    ),
    snapshot: toJson(gatewaySnapshot, 'output'),
  };
}
