import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs $VISUAL / $EDITOR (vi when neither is set) on `text` with the terminal
 * handed over, and returns the saved text without its final newline, or
 * undefined when the editor failed (the draft is then left as it was).
 */
export function editInExternalEditorSync(text: string, env: NodeJS.ProcessEnv = process.env): { text?: string; error?: string } {
  const editor = env.VISUAL || env.EDITOR || 'vi';
  const dir = mkdtempSync(join(tmpdir(), 'claw-draft-'));
  const file = join(dir, 'draft.md');
  try {
    writeFileSync(file, text, { mode: 0o600 });
    // The editor string may carry flags (`code -w`); run it through the shell like git does.
    const result = spawnSync('/bin/sh', ['-c', `${editor} "$1"`, 'sh', file], { stdio: 'inherit' });
    if (result.error) return { error: `could not start ${editor}: ${result.error.message}` };
    if (result.status !== 0) return { error: `${editor} exited with code ${result.status ?? result.signal}; the draft is unchanged` };
    return { text: readFileSync(file, 'utf8').replace(/\n$/, '') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
