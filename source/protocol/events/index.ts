import { gatewayEvents } from './gateway.js';

/** Every event the gateway pushes; subsystems add theirs in files of their own. */
export const events = {
  ...gatewayEvents,
};
