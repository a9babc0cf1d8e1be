import { createServer, type Server, type Socket } from 'node:net';
import { ApiError } from '../../platform/errors.js';
import { WyomingConnection, type WyomingDeps } from './connection.js';
import { describeService } from './describe.js';
import { encodeEvent, EventReader, type FramingLimits, type WyomingEvent } from './framing.js';
import { clientError, errorEventData, eventSender } from './sender.js';

export interface WyomingServerOptions extends FramingLimits {
  host: string;
  port: number;
  /** TIMBRE_WYOMING_MAX_CONNECTIONS. */
  maxConnections: number;
  /** TIMBRE_WYOMING_IDLE_SECONDS. */
  idleSeconds: number;
}

export interface WyomingServer {
  /** `tcp://host:port`, with the port bound (for port 0). */
  url: string;
  close(): Promise<void>;
}

/**
 * After the last event the server writes to a connection it is closing (an error), how long it
 * still reads and discards what the client sends, so the client reads that event rather than a
 * reset from a socket closed with unread bytes.
 */
const LINGER_MS = 2000;

/** Events read ahead of the one being handled before the socket stops reading (a streamed reply's chunks, mostly). */
const MAX_EVENTS_AHEAD = 256;

/** What a waiting event holds in memory, about: its data as JSON and its payload. */
const eventBytes = (event: WyomingEvent) => JSON.stringify(event.data).length + (event.payload?.length ?? 0);

/** Ends a connection with a last `error` event: its further bytes are discarded, then it is destroyed. */
function closeWithError(socket: Socket, error: unknown): void {
  if (socket.destroyed || socket.writableEnded) return;
  socket.removeAllListeners('data');
  socket.on('data', () => undefined);
  socket.resume();
  socket.end(encodeEvent('error', errorEventData(clientError(error))));
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/**
 * One client's connection: bytes become events (EventReader, whose limits close the connection),
 * events are handled one after another (WyomingConnection). While the server waits on the client
 * (no request running) the socket's idle timeout runs: a client silent for `idleSeconds`, even in
 * the middle of an event, is closed. Events read ahead of the one running are bounded: past about
 * one largest event the socket stops reading until they are handled.
 */
function serveConnection(socket: Socket, deps: WyomingDeps, options: WyomingServerOptions): void {
  const idleMs = options.idleSeconds * 1000;
  const reader = new EventReader(options);
  const connection = new WyomingConnection(deps, eventSender(socket, idleMs));
  const release = () => connection.close().catch((error: unknown) => deps.log.warn({ err: error }, 'a Wyoming connection left files behind'));
  const waiting: { event: WyomingEvent; bytes: number }[] = [];
  const readAhead = options.maxEventBytes + options.maxPayloadBytes;
  let waitingBytes = 0;
  let running = false;
  let inputEnded = false;

  const pump = async () => {
    if (running) return;
    running = true;
    socket.setTimeout(0);
    try {
      for (let next = waiting.shift(); next; next = waiting.shift()) {
        waitingBytes -= next.bytes;
        if (socket.isPaused() && waitingBytes <= readAhead && waiting.length <= MAX_EVENTS_AHEAD) socket.resume();
        await connection.handle(next.event);
      }
    } catch {
      // The client is gone or stopped reading: nobody is left to answer (unless an error is on its way: closeWithError).
      if (!socket.writableEnded) socket.destroy();
    } finally {
      running = false;
    }
    if (inputEnded) socket.end();
    else if (!socket.destroyed) socket.setTimeout(idleMs);
  };

  socket.on('data', (chunk: Buffer) => {
    try {
      for (const event of reader.push(chunk)) {
        const bytes = eventBytes(event);
        waiting.push({ event, bytes });
        waitingBytes += bytes;
      }
    } catch (error) {
      waiting.length = 0;
      void release();
      closeWithError(socket, error);
      return;
    }
    if (waitingBytes > readAhead || waiting.length > MAX_EVENTS_AHEAD) socket.pause();
    void pump();
  });
  socket.on('end', () => {
    inputEnded = true;
    if (!running) socket.end();
  });
  socket.on('timeout', () => closeWithError(socket, idleError(options.idleSeconds, reader.midEvent)));
  socket.on('error', () => undefined);
  socket.on('close', () => void release());
  socket.setTimeout(idleMs);
}

function idleError(idleSeconds: number, midEvent: boolean): ApiError {
  const when = midEvent ? 'in the middle of an event' : 'between requests';
  return new ApiError(408, 'idle_timeout', `The client sent nothing for ${idleSeconds} s ${when}`, { idle_seconds: idleSeconds });
}

/**
 * Listens for Wyoming clients (Home Assistant's voice pipelines). At most `maxConnections` are
 * open at once: one more is told `too_many_connections` and closed. Closing stops listening and
 * ends every connection, cancelling the syntheses they were receiving.
 */
export async function startWyomingServer(deps: WyomingDeps, options: WyomingServerOptions): Promise<WyomingServer> {
  const open = new Set<Socket>();
  // Half-open: a client may send its request and shut its side (`nc -N`) and still read the answer.
  // No Nagle delay: an audio-start and the first chunk go out as soon as they are written.
  const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    if (open.size >= options.maxConnections) {
      socket.on('error', () => undefined);
      closeWithError(socket, new ApiError(503, 'too_many_connections', `The Wyoming server holds at most ${options.maxConnections} connections at once`));
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    serveConnection(socket, deps, options);
  });
  await listen(server, options.host, options.port);
  // Home Assistant gives `describe` about a second: the voices are read from the engines now, not on its first one.
  describeService(deps).catch((error: unknown) => deps.log.warn({ err: error }, 'the Wyoming voice list could not be read at start'));
  // Accepting can fail (out of file descriptors): the server goes on with the connections it has.
  server.on('error', (error) => deps.log.warn({ err: error }, 'the Wyoming server could not accept a connection'));
  return {
    url: `tcp://${hostForUrl(options.host)}:${boundPort(server, options.port)}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of open) socket.destroy();
      }),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function boundPort(server: Server, configured: number): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : configured;
}

const hostForUrl = (host: string) => (host.includes(':') ? `[${host}]` : host);
