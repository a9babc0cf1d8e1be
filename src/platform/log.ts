import { pino, type Logger } from 'pino';

/** Where services report what they handled without failing anyone: JSON lines on stderr. */
export type Log = Logger;

/**
 * The services' logger: pino, as Fastify's request logger, with the same level and the same
 * stream, so one process writes one format.
 */
export function createLog(level: string): Log {
  return pino({ level }, process.stderr);
}
