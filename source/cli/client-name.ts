import { hostname, userInfo } from 'node:os';

/**
 * The name a client gives the gateway, shown to other operators as who sent a
 * message or answered an approval: `tui · me@laptop`, not a random id.
 */
export function clientName(tool: string): string {
  let user = '';
  try {
    user = `${userInfo().username}@`;
  } catch {
    // No passwd entry (some containers): the host alone still says where it came from.
  }
  return `${tool} · ${user}${hostname()}`;
}
