import { createHmac, timingSafeEqual } from 'node:crypto';

/** The key bytes of a Standard Webhooks secret: `whsec_<base64>` decodes, anything else is used as it is. */
export function signingKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret);
}

/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, as a Standard Webhooks sender computes it. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64');
  return `v1,${mac}`;
}

export interface SignatureCheck {
  secret: string;
  id: string | undefined;
  timestamp: string | undefined;
  signature: string | undefined;
  body: Buffer;
  nowMs: number;
  toleranceSeconds: number;
}

/** Undefined when the request is signed correctly and on time; otherwise why it is not. */
export function signatureProblem(check: SignatureCheck): string | undefined {
  if (!check.id || !check.timestamp || !check.signature)
    return 'This route needs a Standard Webhooks signature: send webhook-id, webhook-timestamp and webhook-signature headers.';
  if (!/^\d+$/.test(check.timestamp)) return 'webhook-timestamp must be whole seconds since 1970 (UTC).';
  const skew = Math.abs(check.nowMs / 1000 - Number(check.timestamp));
  if (skew > check.toleranceSeconds)
    return `webhook-timestamp is ${Math.round(skew)} s away from the gateway's clock (tolerance ${check.toleranceSeconds} s): send a fresh request, or fix the sender's clock.`;
  const expected = Buffer.from(signWebhook(check.secret, check.id, Number(check.timestamp), check.body).slice(3), 'base64');
  // The header may carry several space-separated signatures (key rotation); one match is enough.
  for (const candidate of check.signature.split(' ')) {
    const [version, value] = candidate.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return undefined;
  }
  return 'webhook-signature does not match: sign "webhook-id.webhook-timestamp.body" with HMAC-SHA256 and this mapping\'s secret, base64, prefixed "v1,".';
}
