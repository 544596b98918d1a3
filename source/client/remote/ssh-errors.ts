import { ClawError } from '../../protocol/index.js';

/**
 * Turns what ssh printed into an error that says what to do. ssh exits 255
 * for its own failures; other codes are the remote command's.
 */
export function classifySshFailure(target: string, exitCode: number | null, stderr: string, remoteCommand: string): ClawError {
  const text = stderr.trim();
  const last = text.split('\n').filter(Boolean).slice(-1)[0] ?? '';
  if (exitCode === 255 || exitCode === null) {
    if (/Permission denied|Too many authentication failures|no mutual signature/i.test(text)) {
      return new ClawError(
        'unauthorized',
        `SSH refused to log in to ${target}: ${last}\nCheck your key (ssh-add -l), user name and ~/.ssh/config; \`ssh ${target}\` must work on its own.`,
      );
    }
    if (/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED/i.test(text)) {
      return new ClawError(
        'unauthorized',
        `SSH does not trust the host key of ${target}: ${last}\nConnect once with \`ssh ${target}\` to verify and record it.`,
      );
    }
    if (/Could not resolve hostname|Name or service not known|nodename nor servname/i.test(text)) {
      return new ClawError('unavailable', `Cannot resolve ${target}: ${last}\nCheck the host name or your ~/.ssh/config alias.`);
    }
    if (/Connection refused|No route to host|timed out|Network is unreachable|Connection closed|Connection reset/i.test(text)) {
      return new ClawError('unavailable', `Cannot reach ${target} over SSH: ${last}\nIs the host up and sshd listening on that port?`);
    }
    if (/Address already in use|cannot listen to port|forwarding failed/i.test(text)) {
      return new ClawError(
        'conflict',
        `SSH could not open the local tunnel port: ${last}\nAnother program holds it; try again (claw picks a free port) or pass --local-port.`,
      );
    }
    return new ClawError('unavailable', `ssh to ${target} failed${exitCode === null ? '' : ` (exit ${exitCode})`}: ${last || 'no message'}`);
  }
  if (exitCode === 127 || /command not found|No such file or directory/i.test(text)) {
    return new ClawError(
      'not_found',
      `claw is not installed on ${target} (\`${remoteCommand}\`: command not found).\nInstall it there (clone claw, \`npm ci && npm link\`), or pass --remote-claw with the path of its \`claw\`.`,
    );
  }
  return new ClawError('unavailable', `\`${remoteCommand}\` failed on ${target} (exit ${exitCode}): ${last || 'no message'}`);
}
