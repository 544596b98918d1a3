import { describe, expect, it } from 'vitest';
import { classifyHttpError } from '../../source/providers/classify.js';
import { describeProfile } from '../../source/providers/credentials.js';

const refused = (status: number, profile: string, model = 'openai/gpt-x') =>
  classifyHttpError({ status, headers: new Headers(), bodyText: '{"error":{"message":"nope"}}', model, profile, now: 0 }).message;

describe('hints that name the key to fix', () => {
  it('says which key a 401 refused: environment variable, credentials file, named profile', () => {
    expect(refused(401, 'env:OPENAI_API_KEY')).toContain("Check the API key: $OPENAI_API_KEY in the gateway's environment was refused");
    expect(refused(401, 'file:default')).toContain('the apiKey in credentials/openai.json was refused');
    expect(refused(401, 'file:work')).toContain('profile "work" in credentials/openai.json was refused');
  });

  it('tells a keyless provider that answers 401 where a key goes, with no internal label', () => {
    const message = refused(401, 'none', 'local/llama');
    expect(message).toContain('local asked for an API key and none is configured');
    expect(message).not.toMatch(/\[none\]|none\]/);
  });

  it('gives a 429 from a keyless provider the plain rate-limit hint', () => {
    const message = refused(429, 'none', 'local/llama');
    expect(message).toContain('rate-limiting');
    expect(message).not.toContain('none]');
    expect(describeProfile('none', 'local')).toBeUndefined();
  });
});
