import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachOverSsh, GatewayClient, parseSshTarget } from '../../source/client/index.js';
import { ClawError } from '../../source/protocol/index.js';
import { makeTempState, type TempState } from '../support/temp-state.js';
import { CLI_ENTRY, runCli, runCliSync } from '../support/cli-process.js';
import { sshdPath, startTestSshd, type TestSshd } from '../support/sshd.js';

const haveSshd = Boolean(sshdPath());

async function waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('parseSshTarget', () => {
  it('splits user, host and port and keeps aliases intact', () => {
    expect(parseSshTarget('me@box:2222')).toEqual({ destination: 'me@box', port: 2222, label: 'me@box:2222' });
    expect(parseSshTarget('homeserver')).toEqual({ destination: 'homeserver', label: 'homeserver' });
    expect(parseSshTarget('me@[::1]:22')).toMatchObject({ destination: 'me@::1', port: 22 });
    expect(() => parseSshTarget('-oProxyCommand=x')).toThrow(/not an SSH destination/);
    expect(() => parseSshTarget('me@box:99999')).toThrow(/1–65535/);
  });
});

describe.runIf(haveSshd)('claw attach over a real sshd', () => {
  let sshd: TestSshd;
  let remote: TempState;
  let remoteClaw: string;

  beforeAll(async () => {
    sshd = await startTestSshd();
    remote = makeTempState('claw-remote-');
    // Port 0: a remote gateway this test starts never holds the default port another test's gateway needs.
    remoteClaw = `CLAW_STATE_DIR=${remote.dir} CLAW_GATEWAY_PORT=0 ${process.execPath} ${CLI_ENTRY}`;
  });

  afterAll(async () => {
    runCliSync(['gateway', 'stop'], remote.env);
    await sshd.stop();
    remote.cleanup();
  });

  const sshArgs = () => ({ extraArgs: ['-F', sshd.configFile], remoteClaw });

  it('says the remote gateway is not running, then starts it with --start', { timeout: 90_000 }, async () => {
    await expect(attachOverSsh(sshd.hostAlias, sshArgs())).rejects.toThrow(/not running.*--start/s);
    const attachment = await attachOverSsh(sshd.hostAlias, { ...sshArgs(), start: true });
    attachment.tunnel.close();
    expect(attachment.info.running).toBe(true);
  });

  it('tunnels to the remote gateway, and resumes after the link drops without losing events', async () => {
    const started = await runCli(['gateway', 'start', '--port', '0'], remote.env);
    expect(started.code).toBe(0);
    const attachment = await attachOverSsh(sshd.hostAlias, sshArgs());
    const client = new GatewayClient({ url: attachment.url, token: attachment.info.token, reconnect: true, clientName: 'attach-test' });
    try {
      const hello = await client.connect();
      expect(hello.resume).toBe('none');
      const status = await client.request('status');
      expect(status.stateDir).toBe(remote.dir);

      const hellos: string[] = [];
      client.onHello((h) => hellos.push(h.resume));
      sshd.dropConnections();
      await waitFor(() => attachment.tunnel.state === 'dropped' || client.state !== 'open');
      // Another client on the remote makes events while we are cut off.
      const other = await runCli(['status', '--json'], remote.env);
      expect(other.code).toBe(0);
      await waitFor(() => client.state === 'open' && hellos.length > 0, 40_000);
      expect(hellos[0]).toBe('replayed');
      const again = await client.request('status');
      expect(again.epoch).toBe(status.epoch);
    } finally {
      client.close();
      attachment.tunnel.close();
    }
  }, 60_000);

  it('explains a missing claw on the remote', async () => {
    const error = await attachOverSsh(sshd.hostAlias, { extraArgs: ['-F', sshd.configFile], remoteClaw: 'claw-not-installed-here' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClawError);
    expect((error as ClawError).code).toBe('not_found');
    expect((error as ClawError).message).toMatch(/not installed.*--remote-claw/s);
  });

  it('explains an authentication failure', async () => {
    const error = await attachOverSsh(`no-such-user-claw@${sshd.hostAlias}`, {
      extraArgs: ['-F', sshd.configFile, '-o', 'BatchMode=yes'],
      remoteClaw,
    }).catch((e: unknown) => e);
    expect((error as ClawError).code).toBe('unauthorized');
    expect((error as ClawError).message).toMatch(/refused to log in/);
  });

  it('explains an unreachable host', async () => {
    const error = await attachOverSsh(`127.0.0.1:1`, { extraArgs: ['-o', 'BatchMode=yes', '-o', 'ConnectTimeout=5'], remoteClaw }).catch((e: unknown) => e);
    expect((error as ClawError).code).toBe('unavailable');
    expect((error as ClawError).message).toMatch(/Cannot reach/);
  });
});
