import { statePaths } from '../../config/index.js';
import { gatewayStatus, startGatewayDetached } from '../../gateway/index.js';
import type { CommandRun } from '../command.js';
import { describeStatus } from './status.js';

/** `claw` with no command: make sure the local gateway runs, then show it. */
export const run: CommandRun = async () => {
  const paths = statePaths();
  const { started } = await startGatewayDetached(paths);
  if (started) process.stdout.write('started the local gateway\n');
  process.stdout.write(describeStatus(await gatewayStatus(paths), paths.root));
  return 0;
};
