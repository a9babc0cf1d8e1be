import type { Config } from '../platform/config.js';
import { startServer } from '../app/server.js';

/** How long shutdown may wait for open work before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

/** Runs until SIGINT or SIGTERM. Prints the address on stdout so scripts can start it on port 0. */
export async function serveCommand(config: Config): Promise<undefined> {
  const server = await startServer(config);
  process.stdout.write(`Timbre listening on ${server.url}\n`);
  if (server.wyoming) process.stdout.write(`Wyoming listening on ${server.wyoming.url}\n`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.app.log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return undefined;
}
