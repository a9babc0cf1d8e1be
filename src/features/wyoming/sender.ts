import type { Socket } from 'node:net';
import { ApiError } from '../../platform/errors.js';
import { toApiError } from '../../platform/http/error-handler.js';
import { encodeEvent } from './framing.js';

/** Writes one event; resolves once the socket can take more. */
export type SendEvent = (type: string, data?: Record<string, unknown>, payload?: Buffer) => Promise<void>;

/** Anything thrown as the error a client is told: an ApiError as it is, an unknown failure as `internal_error`. */
export function clientError(error: unknown): ApiError {
  return toApiError(error instanceof Error ? error : new Error(String(error)));
}

/** An `error` event's data: Timbre's message and code, and its details when it has any. */
export function errorEventData(error: ApiError): Record<string, unknown> {
  return { text: error.message, code: error.code, ...(Object.keys(error.details).length > 0 ? { details: error.details } : {}) };
}

/** The client went away, or stopped reading, while an answer was being sent: nobody is left to tell. */
export class ConnectionGone extends Error {
  constructor(message = 'The Wyoming client closed the connection') {
    super(message);
    this.name = 'ConnectionGone';
  }
}

/**
 * Events out to one client, at the pace it reads them: past the socket's buffer each send waits
 * for `drain`, so a client that stops reading holds up only its own answer, and the socket never
 * buffers more than one event beyond its high-water mark. A client that reads nothing for
 * `stallMs` is one the server waits on in silence, like an idle one: the send fails
 * (ConnectionGone), the connection is closed and its synthesis cancelled.
 */
export function eventSender(socket: Socket, stallMs: number): SendEvent {
  return async (type, data, payload) => {
    if (socket.destroyed || !socket.writable) throw new ConnectionGone();
    if (socket.write(encodeEvent(type, data, payload))) return;
    await drained(socket, stallMs);
  };
}

function drained(socket: Socket, stallMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      clearTimeout(timer);
      socket.off('drain', onDrain);
      socket.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(new ConnectionGone());
    const timer = setTimeout(() => settle(new ConnectionGone(`The Wyoming client read nothing for ${Math.round(stallMs / 1000)} s`)), stallMs);
    socket.on('drain', onDrain);
    socket.on('close', onClose);
  });
}
