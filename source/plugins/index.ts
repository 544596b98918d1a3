export { PluginsService, PLUGIN_RUNTIME_FILE } from './plugins-service.js';
export { CLAW_PLUGIN_API, readManifest, describeContributions, describePermissions } from './manifest.js';
export { installPlugin } from './install.js';
export { pluginInfo, recordStatus } from './plugin-info.js';
export {
  pluginPaths,
  inspectPlugin,
  installedIds,
  removePlugin,
  grantPlugin,
  disablePlugin,
  readPluginSecrets,
  writePluginSecret,
  type PluginPaths,
  type PluginRecord,
} from './store.js';
