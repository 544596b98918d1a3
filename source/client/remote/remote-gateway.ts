import { z } from 'zod';
import { ClawError, lazySchema } from '../../protocol/index.js';
import { runRemote, SshTunnel, type SshOptions } from './ssh-tunnel.js';
import { parseSshTarget, type SshTarget } from './ssh-target.js';

/** What `claw gateway connect-info` prints on the remote, read over ssh's channel. */
export const connectInfo = lazySchema(() =>
  z.object({
    version: z.string(),
    running: z.boolean(),
    port: z.number().int().optional(),
    bind: z.string().optional(),
    token: z.string().min(1),
  }),
);
export type ConnectInfo = z.infer<typeof connectInfo>;

export interface RemoteAttachOptions extends SshOptions {
  /** How to run claw on the remote (default `claw`). */
  remoteClaw?: string;
  /** Port of the remote gateway when it is not the one it reports. */
  remotePort?: number;
  /** Start the remote gateway when it is not running. */
  start?: boolean;
}

export interface RemoteAttachment {
  target: SshTarget;
  info: ConnectInfo;
  tunnel: SshTunnel;
  url: string;
}

export async function readRemoteConnectInfo(target: SshTarget, options: RemoteAttachOptions): Promise<ConnectInfo> {
  const claw = options.remoteClaw ?? 'claw';
  const command = `${claw} gateway connect-info${options.start ? ' --start' : ''}`;
  const stdout = await runRemote(target, command, options);
  const line = stdout.trim().split('\n').filter(Boolean).slice(-1)[0] ?? '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new ClawError(
      'unavailable',
      `\`${command}\` on ${target.label} printed something unexpected; is the remote claw the same version?\n${stdout.slice(0, 300)}`,
    );
  }
  const result = connectInfo.safeParse(parsed);
  if (!result.success) throw new ClawError('unavailable', `\`${command}\` on ${target.label} answered in an unknown shape; upgrade claw there.`);
  return result.data;
}

/**
 * Reads the remote gateway's port and token over ssh (never on a command line,
 * never in a URL), then opens a local tunnel to it.
 */
export async function attachOverSsh(targetText: string, options: RemoteAttachOptions = {}): Promise<RemoteAttachment> {
  const target = parseSshTarget(targetText);
  const info = await readRemoteConnectInfo(target, options);
  if (!info.running) {
    throw new ClawError(
      'unavailable',
      `The claw gateway on ${target.label} is not running. Start it with \`ssh ${target.label} claw gateway start\`, or run \`claw attach ${targetText} --start\`.`,
    );
  }
  const remotePort = options.remotePort ?? info.port;
  if (remotePort === undefined) throw new ClawError('unavailable', `The gateway on ${target.label} did not report its port; pass --remote-port.`);
  const tunnel = new SshTunnel(target, remotePort, options);
  const localPort = await tunnel.open();
  return { target, info, tunnel, url: `ws://127.0.0.1:${localPort}` };
}
