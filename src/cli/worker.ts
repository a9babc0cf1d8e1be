import { localWorker } from '../app/compute.js';
import { ConfigError, type Config } from '../platform/config.js';
import { createLog } from '../platform/log.js';

/** Runs until SIGINT or SIGTERM, taking engine calls from the queue for the engines this machine has. */
export async function workerCommand(config: Config): Promise<undefined> {
  if (config.queueUrl === undefined) {
    throw new ConfigError('timbre worker needs TIMBRE_QUEUE_URL (or --queue-url): the Redis the service sends its engine work through');
  }
  const log = createLog(config.logLevel);
  const { host, worker, slots } = localWorker(config, config.queueUrl, log);
  const engines = await worker.start();
  process.stdout.write(`Timbre worker ${worker.id} runs ${slots} calls at once with ${engines.join(', ') || 'no engine'}\n`);
  let stopping = false;
  // The first signal lets running calls finish (TIMBRE_WORKER_DRAIN_SECONDS); a second leaves them to other workers at once.
  const stop = () => {
    if (stopping) process.exit(1);
    stopping = true;
    worker
      .close(config.workerDrainSeconds * 1000)
      .then(() => host.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return undefined;
}
