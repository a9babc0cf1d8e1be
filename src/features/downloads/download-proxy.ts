import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError } from '../../platform/errors.js';
import { resolveAllowed, type GuardOptions } from './url-guard.js';

/**
 * A proxy on 127.0.0.1 that yt-dlp (and the ffmpeg it starts) must send every request through.
 * Each connection, including every redirect hop and every further URL an extractor fetches, is
 * resolved and checked by the URL guard here, and the connection goes to the address that was
 * checked, so a second DNS answer cannot point it elsewhere. The first refusal is kept: yt-dlp
 * only sees an HTTP error, the job reports the guard's own error instead.
 */
export interface GuardProxy {
  /** `http://127.0.0.1:PORT`, for `yt-dlp --proxy`. */
  url: string;
  /** The first request the guard refused or could not connect, if any. */
  refusal(): ApiError | undefined;
  /** Stops listening and cuts every open connection. */
  close(): Promise<void>;
}

export interface GuardProxyOptions extends GuardOptions {
  /** An upstream that does not accept the connection in this time is reported as a timeout. */
  connectTimeoutMs: number;
}

const HOP_BY_HOP = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive'];

function connectError(host: string, error: NodeJS.ErrnoException): ApiError {
  if (error.code === 'ETIMEDOUT') return new ApiError(504, 'download_timeout', `Connecting to ${host} timed out`, { host });
  return new ApiError(502, 'host_unreachable', `Cannot connect to ${host} (${error.code ?? error.message})`, { host, reason: error.code ?? 'connect_failed' });
}

/** Statuses yt-dlp sees for a refusal; only the recorded ApiError reaches the client. */
function statusFor(error: ApiError): number {
  return error.statusCode === 403 ? 403 : error.statusCode === 504 ? 504 : 502;
}

/** Opens a TCP connection to the checked address, failing with ETIMEDOUT when it takes too long. */
function connectChecked(address: string, port: number, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    socket.setTimeout(timeoutMs, () => socket.destroy(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })));
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.removeListener('error', reject);
      resolve(socket);
    });
  });
}

export async function startGuardProxy(options: GuardProxyOptions): Promise<GuardProxy> {
  let refused: ApiError | undefined;
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const refuse = (error: unknown): ApiError => {
    const apiError = error instanceof ApiError ? error : new ApiError(502, 'host_unreachable', String(error));
    refused ??= apiError;
    return apiError;
  };

  const session: ProxySession = { options, track, refuse };
  const server = http.createServer((request, response) => void forward(session, request, response));
  server.on('connection', track);
  server.on('connect', (request, client, head) => void tunnel(session, request, client, head));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    refusal: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** What the proxy's handlers share: its options, the open sockets, the first refusal. */
interface ProxySession {
  options: GuardProxyOptions;
  track: (socket: Duplex) => void;
  refuse: (error: unknown) => ApiError;
}

/** Plain http requests arrive in absolute form (`GET http://host/path`). */
async function forward({ options, track, refuse }: ProxySession, request: IncomingMessage, response: ServerResponse): Promise<void> {
  try {
    const target = new URL(request.url ?? '');
    if (target.protocol !== 'http:') throw new ApiError(400, 'url_scheme_not_allowed', `A proxied request must be http, not ${target.protocol}`);
    const address = await resolveAllowed(target.hostname, options);
    const port = Number(target.port || 80);
    const socket = await connectChecked(address, port, options.connectTimeoutMs).catch((error: NodeJS.ErrnoException) => {
      throw connectError(target.hostname, error);
    });
    track(socket);
    const headers = { ...request.headers };
    for (const name of HOP_BY_HOP) delete headers[name];
    const upstream = http.request({ createConnection: () => socket, method: request.method, path: `${target.pathname}${target.search}`, headers });
    upstream.once('response', (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.once('error', () => response.destroy());
    request.pipe(upstream);
  } catch (error) {
    const apiError = refuse(error);
    response.writeHead(statusFor(apiError), { 'content-type': 'text/plain' }).end(apiError.message);
  }
}

/** https goes through CONNECT: the guard checks the host, the TLS stays end to end. */
async function tunnel({ options, track, refuse }: ProxySession, request: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
  track(client);
  client.on('error', () => client.destroy());
  try {
    const target = new URL(`https://${request.url ?? ''}`);
    const address = await resolveAllowed(target.hostname, options);
    const upstream = await connectChecked(address, Number(target.port || 443), options.connectTimeoutMs).catch((error: NodeJS.ErrnoException) => {
      throw connectError(target.hostname, error);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    upstream.write(head);
    upstream.pipe(client).on('close', () => upstream.destroy());
    client.pipe(upstream);
    client.once('close', () => upstream.destroy());
  } catch (error) {
    const apiError = refuse(error);
    client.end(`HTTP/1.1 ${statusFor(apiError)} Refused\r\nContent-Length: 0\r\n\r\n`);
  }
}
