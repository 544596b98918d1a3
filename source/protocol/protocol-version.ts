// Apart from frames.ts so a client can send it without loading zod.
export const PROTOCOL_VERSION = 1;
