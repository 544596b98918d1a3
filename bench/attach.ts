// Attach over a real local sshd (private, temp dir) and measure:
//  - attach time: `claw gateway connect-info` over ssh + tunnel up + connect → hello;
//  - reconnect-to-resumed: after every ssh link is cut, time until the client
//    has resumed (hello with resume "replayed"), and the part of it after the
//    tunnel was back up.
// Run: npm run build && npx tsx bench/attach.ts [--rounds N]
import { spawnSync } from 'node:child_process';
import { attachOverSsh, GatewayClient } from '../source/client/index.js';
import { CLI_ENTRY } from '../test/support/cli-process.js';
import { makeTempState } from '../test/support/temp-state.js';
import { startTestSshd } from '../test/support/sshd.js';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const round = (x: number) => Math.round(x * 10) / 10;

const sshd = await startTestSshd();
const remote = makeTempState('claw-bench-attach-');
spawnSync(process.execPath, [CLI_ENTRY, 'gateway', 'start', '--port', '0'], { env: remote.env, stdio: 'ignore' });
const options = { extraArgs: ['-F', sshd.configFile], remoteClaw: `CLAW_STATE_DIR=${remote.dir} ${process.execPath} ${CLI_ENTRY}` };

const attachMs: number[] = [];
const resumeTotalMs: number[] = [];
const resumeAfterLinkMs: number[] = [];
try {
  for (let i = 0; i < rounds; i += 1) {
    const t0 = performance.now();
    const attachment = await attachOverSsh(sshd.hostAlias, options);
    const client = new GatewayClient({ url: attachment.url, token: attachment.info.token, reconnect: true, clientName: 'bench' });
    await client.connect();
    attachMs.push(performance.now() - t0);

    let linkBackAt = 0;
    attachment.tunnel.onState((state) => {
      if (state !== 'open') return;
      linkBackAt = performance.now();
      client.reconnectNow();
    });
    const resumed = new Promise<number>((resolve) =>
      client.onHello((h) => {
        if (h.resume !== 'none') resolve(performance.now());
      }),
    );
    const cutAt = performance.now();
    sshd.dropConnections();
    const at = await resumed;
    resumeTotalMs.push(at - cutAt);
    resumeAfterLinkMs.push(at - linkBackAt);
    client.close();
    attachment.tunnel.close();
  }
} finally {
  spawnSync(process.execPath, [CLI_ENTRY, 'gateway', 'stop'], { env: remote.env, stdio: 'ignore' });
  await sshd.stop();
  remote.cleanup();
}

console.log(
  JSON.stringify(
    {
      rounds,
      attach_to_hello_ms: { median: round(median(attachMs)), all: attachMs.map(round), target: 1500 },
      reconnect_resumed_after_link_back_ms: { median: round(median(resumeAfterLinkMs)), all: resumeAfterLinkMs.map(round), target: 1000 },
      reconnect_total_after_cut_ms: { median: round(median(resumeTotalMs)), note: 'from the cut: tunnel respawn (first one immediate) + client reconnect' },
    },
    null,
    2,
  ),
);
