export { PluginsService, PLUGIN_RUNTIME_FILE, type PluginsPorts } from './plugins-service.js';
export {
  CLAW_PLUGIN_API,
  MANIFEST_FILE,
  readManifest,
  describeContributions,
  describePermissions,
  toolName,
  widenedPermissions,
  PluginManifestError,
  type PluginManifest,
  type PluginPermissions,
} from './manifest.js';
export { installPlugin, type InstallResult } from './install.js';
export {
  pluginPaths,
  inspectPlugin,
  installedIds,
  removePlugin,
  grantPlugin,
  disablePlugin,
  readLock,
  readGrants,
  treeHash,
  readPluginSecrets,
  writePluginSecret,
  type PluginPaths,
  type PluginRecord,
  type PluginState,
} from './store.js';
