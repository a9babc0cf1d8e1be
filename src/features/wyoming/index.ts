export type { WyomingDeps } from './connection.js';
export { WYOMING_VERSION } from './framing.js';
export { startWyomingServer, type WyomingServer, type WyomingServerOptions } from './server.js';
