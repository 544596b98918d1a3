export { parseSshTarget, type SshTarget } from './ssh-target.js';
export { SshTunnel, runRemote, freeLocalPort, type SshOptions, type TunnelState } from './ssh-tunnel.js';
export { attachOverSsh, readRemoteConnectInfo, connectInfo, type ConnectInfo, type RemoteAttachment, type RemoteAttachOptions } from './remote-gateway.js';
export { classifySshFailure } from './ssh-errors.js';
