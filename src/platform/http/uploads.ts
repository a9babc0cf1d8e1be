import multipart, { type Multipart, type MultipartFile } from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import { isStorageFull } from '../storage-full.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Largest uploaded file, for the 413 details. */
    maxUploadBytes: number;
  }
}

/** Text fields travel with the file (names, transcripts); a few, and short. */
const FIELD_LIMITS = { fields: 32, fieldSize: 64 * 1024 };

/**
 * Accepts `multipart/form-data` on every route. JSON bodies keep Fastify's `bodyLimit`
 * (TIMBRE_MAX_BODY_BYTES); a multipart body is not read until a route asks for it with
 * `receiveUpload`, which streams the file to disk under its own limit.
 */
export async function installUploads(app: FastifyInstance, options: { maxUploadBytes: number; maxFiles: number }): Promise<void> {
  app.decorate('maxUploadBytes', options.maxUploadBytes);
  await app.register(multipart, {
    // Busboy stops writing at the limit and flags the file truncated; receiveUpload answers 413.
    throwFileSizeLimit: false,
    // One more than any route takes, so that receiveUploads sees the extra file and refuses it.
    limits: { fileSize: options.maxUploadBytes, files: options.maxFiles + 1, ...FIELD_LIMITS },
  });
}

export interface UploadedFile {
  tempPath: string;
  originalName: string | undefined;
}

export interface Upload extends UploadedFile {
  fields: Record<string, string>;
}

/**
 * Streams the one file part of a multipart request to a new temporary file in `tempDir` (never
 * holding it in memory) and collects the text fields. The caller owns the file afterwards; on any
 * error it is removed here. Errors: 415 `unsupported_media_type` (not multipart), 400 `file_missing`,
 * 400 `too_many_files`, 413 `payload_too_large` (details `max_bytes`).
 */
export async function receiveUpload(request: FastifyRequest, tempDir: string): Promise<Upload> {
  const { files, fields } = await receiveUploads(request, tempDir, 1);
  return { ...files[0]!, fields };
}

/** Like receiveUpload, for one to `maxFiles` files, in the order they were sent. */
export async function receiveUploads(
  request: FastifyRequest,
  tempDir: string,
  maxFiles: number,
): Promise<{ files: UploadedFile[]; fields: Record<string, string> }> {
  if (!request.isMultipart()) {
    throw new ApiError(415, 'unsupported_media_type', 'Send the file as multipart/form-data');
  }
  const fields: Record<string, string> = {};
  const files: UploadedFile[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = fieldValue(part);
      } else if (files.length === maxFiles) {
        part.file.resume();
        throw new ApiError(400, 'too_many_files', maxFiles === 1 ? 'Send one file per request' : `Send at most ${maxFiles} files per request`, {
          max_files: maxFiles,
        });
      } else {
        const file = { tempPath: join(tempDir, `.upload-${randomUUID()}.tmp`), originalName: part.filename || undefined };
        files.push(file);
        await saveFile(part, file.tempPath, request.server.maxUploadBytes);
      }
    }
  } catch (error) {
    await Promise.all(files.map((file) => rm(file.tempPath, { force: true })));
    throw asApiError(error, request.server.maxUploadBytes);
  }
  if (files.length === 0) throw new ApiError(400, 'file_missing', 'The request carries no file part (send it as the form field "file")');
  return { files, fields };
}

/**
 * Streams a raw request body (of a content type whose parser leaves it unread) to a new temporary
 * file in `tempDir`, never holding it in memory, and answers its path; the caller owns the file
 * afterwards. Errors: 413 `payload_too_large` (details `max_bytes`) as soon as Content-Length or the
 * bytes received pass `maxBytes`. Whenever the body is not read to its end the connection is closed
 * after the answer, so the rest of it is never read.
 */
export async function receiveBody(request: FastifyRequest, reply: FastifyReply, tempDir: string, maxBytes: number): Promise<string> {
  const path = join(tempDir, `.upload-${randomUUID()}.tmp`);
  try {
    if (Number(request.headers['content-length']) > maxBytes) throw tooLarge(maxBytes);
    await mkdir(tempDir, { recursive: true });
    await pipeline(readUpTo(request.raw, maxBytes), createWriteStream(path, { flags: 'wx' }));
    return path;
  } catch (error) {
    await rm(path, { force: true });
    if (!request.raw.complete) reply.header('connection', 'close');
    throw error;
  }
}

/**
 * The body's bytes, failing past `maxBytes`. Piped rather than handed to pipeline, which would
 * destroy the request, and with it the socket the 413 answer goes out on.
 */
function readUpTo(body: IncomingMessage, maxBytes: number): Transform {
  let received = 0;
  const counter = new Transform({
    transform: (chunk: Buffer, _encoding, done) => {
      received += chunk.length;
      done(received > maxBytes ? tooLarge(maxBytes) : null, chunk);
    },
  });
  body.once('error', (error) => counter.destroy(error));
  body.once('close', () => {
    if (!body.complete) counter.destroy(new ApiError(400, 'request_aborted', 'The request body ended early'));
  });
  return body.pipe(counter);
}

async function saveFile(part: MultipartFile, path: string, maxBytes: number): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await pipeline(part.file, createWriteStream(path, { flags: 'wx' }));
  if (part.file.truncated) throw tooLarge(maxBytes);
}

function fieldValue(part: Extract<Multipart, { type: 'field' }>): string {
  if (part.valueTruncated) {
    throw new ApiError(413, 'payload_too_large', `The field ${part.fieldname} is longer than ${FIELD_LIMITS.fieldSize} bytes`, { field: part.fieldname });
  }
  return String(part.value);
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'payload_too_large', `The file is larger than ${maxBytes} bytes`, { max_bytes: maxBytes });
}

/**
 * The multipart library's own limits (parts, fields) answer 413; a body the parser cannot read
 * (no boundary, cut short, malformed headers) is the client's: 400 `invalid_multipart`. Errors of
 * the system (a full disk, a file that cannot be written) and our own stay as they are.
 */
function asApiError(error: unknown, maxBytes: number): unknown {
  if (error instanceof ApiError || isStorageFull(error) || !(error instanceof Error)) return error;
  const { statusCode, code } = error as Error & { statusCode?: number; code?: unknown };
  if (statusCode === 413) return new ApiError(413, 'payload_too_large', error.message, { max_bytes: maxBytes });
  const fromTheSystem = typeof code === 'string' && /^E[A-Z]+$/.test(code);
  if (fromTheSystem) return error;
  return new ApiError(400, 'invalid_multipart', 'The multipart/form-data body cannot be read', { reason: error.message });
}
