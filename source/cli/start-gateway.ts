import { ConfigError, loadConfig, type StatePaths } from '../config/index.js';
import { startGatewayDetached } from '../client/index.js';

/**
 * startGatewayDetached, but when the gateway dies during start because
 * claw.json is broken, the error says which key and what was expected
 * instead of pointing at a log file.
 */
export async function startGatewayExplained(
  paths: StatePaths,
  options: Parameters<typeof startGatewayDetached>[1] = {},
): ReturnType<typeof startGatewayDetached> {
  try {
    return await startGatewayDetached(paths, options);
  } catch (error) {
    try {
      loadConfig(paths.config);
    } catch (configError) {
      if (configError instanceof ConfigError) throw new ConfigError(`the gateway cannot start: ${configError.message}`, configError.file);
    }
    throw error;
  }
}
