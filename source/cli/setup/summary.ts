import type { ApplyResult } from './backend.js';

/** What was saved and where; each command on a line of its own, so it copies whole. */
export function describeSaved(saved: ApplyResult, where: 'gateway' | 'local'): string {
  const lines = [`Saved: ${saved.model} as the ${saved.role === 'primary' ? 'main model' : 'fallback model'}.`];
  if (saved.fallbacks.length > 0) lines.push(`Fallbacks: ${saved.fallbacks.join(', ')}`);
  if (saved.credentialsFile) lines.push(`Key: ${saved.credentialsFile} (0600)`);
  lines.push(`Config: ${saved.configFile}`);
  for (const file of saved.identityFiles) lines.push(`Wrote ${file}`);
  lines.push(where === 'gateway' ? 'The running gateway uses it from the next message; no restart needed. Chat with:' : 'Start chatting with:');
  lines.push('  claw');
  return lines.join('\n');
}
