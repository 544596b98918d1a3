/** `user@host[:port]` as typed by the user, split for ssh's own flags. */
export interface SshTarget {
  /** What ssh gets as its destination: `user@host` or `host` (aliases from ~/.ssh/config work). */
  destination: string;
  port?: number;
  /** For display in the TUI header. */
  label: string;
}

export function parseSshTarget(text: string): SshTarget {
  const trimmed = text.trim();
  if (!trimmed || /\s/.test(trimmed) || trimmed.startsWith('-')) {
    throw new Error(`"${text}" is not an SSH destination: use user@host, host, or user@host:port.`);
  }
  // [v6::addr]:port, or host:port where the part after the last colon is digits.
  const bracketed = /^(.*@)?\[([^\]]+)\](?::(\d+))?$/.exec(trimmed);
  if (bracketed) {
    const port = bracketed[3] ? Number(bracketed[3]) : undefined;
    const destination = `${bracketed[1] ?? ''}${bracketed[2]}`;
    return { destination, ...(port !== undefined ? { port: checkPort(port, text) } : {}), label: trimmed };
  }
  const match = /^(.*?)(?::(\d+))?$/.exec(trimmed);
  const destination = match?.[1] ?? trimmed;
  const port = match?.[2] ? checkPort(Number(match[2]), text) : undefined;
  if (!destination || destination.endsWith('@')) throw new Error(`"${text}" has no host name.`);
  return { destination, ...(port !== undefined ? { port } : {}), label: trimmed };
}

function checkPort(port: number, text: string): number {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`"${text}": the SSH port must be 1–65535.`);
  return port;
}
