import { z } from 'zod';
import { lazySchema } from '../lazy-schema.js';
import { scope } from '../frames.js';
import { gatewaySnapshot } from '../snapshot.js';

/** Params of the mandatory first request. */
export const connectParams = lazySchema(() =>
  z.strictObject({
    minProtocol: z.number().int().min(1),
    maxProtocol: z.number().int().min(1),
    client: z.strictObject({
      id: z.string().min(1).max(128),
      version: z.string().min(1).max(64),
      name: z.string().max(128).optional(),
    }),
    role: z.literal('operator'),
    scopes: z.array(scope).min(1),
    auth: z.strictObject({ token: z.string().min(1).max(512) }).optional(),
    /** Resume: the gateway epoch and the last event seq this client saw. */
    resume: z.strictObject({ epoch: z.string(), sinceSeq: z.number().int().min(0) }).optional(),
  }),
);
export type ConnectParams = z.infer<typeof connectParams>;

export const helloPayload = lazySchema(() =>
  z.strictObject({
    protocol: z.number().int(),
    server: z.strictObject({
      version: z.string(),
      connId: z.string(),
      /** Changes every time the gateway starts; resume only works within one epoch. */
      epoch: z.string(),
      host: z.string(),
    }),
    scopes: z.array(scope),
    methods: z.array(z.string()),
    events: z.array(z.string()),
    /** Current state, so a client can render before any event arrives. */
    snapshot: gatewaySnapshot,
    /** The seq of the newest event at the time of hello. */
    seq: z.number().int().min(0),
    /**
     * `replayed`: missed events follow this hello in order. `snapshot`: they were
     * no longer buffered (or the gateway restarted), so rely on the snapshot.
     */
    resume: z.enum(['none', 'replayed', 'snapshot']),
  }),
);
export type HelloPayload = z.infer<typeof helloPayload>;
