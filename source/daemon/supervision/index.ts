export { systemdUnit, launchdPlist, SYSTEMD_UNIT_NAME, LAUNCHD_LABEL, type ServiceSpec } from './unit-files.js';
export {
  installService,
  uninstallService,
  serviceInstalled,
  serviceFilePath,
  currentServiceEnvironment,
  defaultServiceSpec,
  runCommand,
  type ServiceEnvironment,
  type CommandRunner,
  type InstallOutcome,
} from './service-install.js';
export {
  startWatchdog,
  shouldPingWatchdog,
  detectSupervisor,
  watchdogIntervalMs,
  systemdNotify,
  type SupervisorKind,
  type WatchdogSample,
} from './watchdog.js';
