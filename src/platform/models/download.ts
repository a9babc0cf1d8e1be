import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';

export class DownloadError extends Error {}

/** The file arrived but is not the one the catalog pins; nothing of it is kept. */
export class VerificationError extends DownloadError {}

export interface DownloadOptions {
  /** Expected size and sha256; null when the catalog has no pin. */
  bytes: number | null;
  sha256: string | null;
  /** Called as data arrives; `total` is null when neither the catalog nor the server says. */
  onProgress?: (received: number, total: number | null) => void;
  /** Plain http to 127.x/::1/localhost, for tests with a local server; never for other hosts. */
  allowLoopbackHttp?: boolean;
  /** Longest silence, connecting or mid-transfer, before giving up (ms). */
  timeoutMs?: number;
  /** Stops the transfer; the download then rejects with the signal's reason, keeping what arrived (to resume or to delete). */
  signal?: AbortSignal;
}

export interface Downloaded {
  bytes: number;
  sha256: string;
}

const MAX_REDIRECTS = 5;

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function checkUrl(url: URL, options: DownloadOptions): void {
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:' && options.allowLoopbackHttp && isLoopback(url.hostname)) return;
  throw new DownloadError(`Refusing to download over ${url.protocol.replace(':', '')}: ${url.href} (only https is allowed)`);
}

/** One GET, following redirects; every hop must pass the same https rule. */
function get(url: URL, headers: Record<string, string>, options: DownloadOptions, redirectsLeft = MAX_REDIRECTS): Promise<IncomingMessage> {
  checkUrl(url, options);
  const timeoutMs = options.timeoutMs ?? 20_000;
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(url, { headers, timeout: timeoutMs, signal: options.signal }, (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location) {
        response.resume();
        if (redirectsLeft === 0) return reject(new DownloadError(`Too many redirects fetching ${url.href}`));
        get(new URL(location, url), headers, options, redirectsLeft - 1).then(resolve, reject);
        return;
      }
      resolve(response);
    });
    // The socket timeout covers the DNS lookup and connect too: a machine without network fails fast.
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    request.on('error', (error) =>
      reject(options.signal?.aborted ? options.signal.reason : new DownloadError(`could not reach ${url.hostname}: ${error.message}`)),
    );
  });
}

async function sizeOf(path: string): Promise<number> {
  return (await stat(path).catch(() => undefined))?.size ?? 0;
}

async function hashExisting(path: string, hash: Hash): Promise<void> {
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
}

/**
 * Asks for the rest of a partial download. Answers whether to append (the server honoured the
 * range) or start over (it sent the whole file, or the partial file was not a prefix of it).
 */
async function requestFrom(url: URL, offset: number, options: DownloadOptions): Promise<{ response: IncomingMessage; append: boolean }> {
  const response = await get(url, offset > 0 ? { range: `bytes=${offset}-` } : {}, options);
  const status = response.statusCode ?? 0;
  if (status === 206 && response.headers['content-range']?.startsWith(`bytes ${offset}-`)) return { response, append: true };
  if (status === 200) return { response, append: false };
  response.resume();
  if (status === 416 && offset > 0) return requestFrom(url, 0, options);
  throw new DownloadError(`${url.hostname} answered ${status} ${response.statusMessage ?? ''} for ${url.href}`.trim());
}

async function receive(url: URL, destination: string, options: DownloadOptions, hash: Hash): Promise<number> {
  let offset = await sizeOf(destination);
  if (options.bytes !== null && offset > options.bytes) offset = 0;
  if (options.bytes !== null && offset === options.bytes) {
    await hashExisting(destination, hash);
    return offset;
  }
  const { response, append } = await requestFrom(url, offset, options);
  let received = append ? offset : 0;
  if (append) await hashExisting(destination, hash);
  const announced = Number(response.headers['content-length'] ?? Number.NaN);
  const total = options.bytes ?? (Number.isFinite(announced) ? received + announced : null);
  const file = await open(destination, append ? 'a' : 'w');
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      options.signal?.throwIfAborted();
      hash.update(chunk);
      await file.write(chunk);
      received += chunk.length;
      options.onProgress?.(received, total);
    }
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw new DownloadError(`Download of ${url.href} was interrupted (${(error as Error).message}); run the command again to resume`);
  } finally {
    await file.close();
  }
  if (total !== null && received < total)
    throw new DownloadError(`Download of ${url.href} ended early at ${received} of ${total} bytes; run the command again to resume`);
  return received;
}

/**
 * Downloads `url` to `destination`, resuming a partial file left there by an interrupted run,
 * then checks size and sha256 when known. A file that fails the check is deleted; a transfer
 * that breaks off is kept so the next run can resume it.
 */
export async function download(url: string, destination: string, options: DownloadOptions): Promise<Downloaded> {
  const hash = createHash('sha256');
  const bytes = await receive(new URL(url), destination, options, hash);
  const sha256 = hash.digest('hex');
  const mismatch =
    options.bytes !== null && bytes !== options.bytes
      ? `${bytes} bytes instead of ${options.bytes}`
      : options.sha256 !== null && sha256 !== options.sha256
        ? `sha256 ${sha256} instead of ${options.sha256}`
        : undefined;
  if (mismatch) {
    await rm(destination, { force: true });
    throw new VerificationError(`${url} failed verification: ${mismatch}; the download was deleted`);
  }
  return { bytes, sha256 };
}
