import { constants, openAsBlob } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { ApiError, invalidField } from '../../platform/errors.js';

/** What a tool may read audio from, and how much: set by the way in (stdio or HTTP). */
export interface AudioLimits {
  /**
   * Over stdio the MCP server runs as the user of the desktop assistant, so it may read the files
   * that user can; over HTTP the server is the service, whose files are not the caller's to read.
   */
  readsLocalFiles: boolean;
  /** TIMBRE_MAX_UPLOAD_BYTES: the largest file a route takes. */
  maxUploadBytes: number;
}

/** An audio blob sent inside the call, as the tools' schemas name its fields. */
export interface InlineAudio {
  audio_base64: string;
  filename?: string;
  mime_type?: string;
}

function tooLarge(field: string, bytes: number, limits: AudioLimits): ApiError {
  return new ApiError(413, 'payload_too_large', `${field} holds ${bytes} bytes, more than TIMBRE_MAX_UPLOAD_BYTES (${limits.maxUploadBytes})`, {
    field,
    size_bytes: bytes,
    max_bytes: limits.maxUploadBytes,
  });
}

/** A file the user running `timbre mcp` names, checked to be a readable regular file within the upload limit. */
export async function localAudio(path: string, field: string, limits: AudioLimits): Promise<File> {
  if (!limits.readsLocalFiles) {
    throw new ApiError(400, 'path_not_allowed', `${field}: over HTTP the service cannot read the caller's files; send the audio as audio_base64 instead`, {
      field,
    });
  }
  const absolute = resolve(path);
  const found = await stat(absolute).catch(() => undefined);
  if (!found) throw new ApiError(404, 'file_not_found', `${field}: no file at ${absolute}`, { field, path: absolute });
  if (!found.isFile()) throw new ApiError(400, 'not_a_file', `${field}: ${absolute} is not a regular file`, { field, path: absolute });
  if (found.size > limits.maxUploadBytes) throw tooLarge(field, found.size, limits);
  const readable = await access(absolute, constants.R_OK).then(
    () => true,
    () => false,
  );
  if (!readable) throw new ApiError(403, 'file_not_readable', `${field}: ${absolute} cannot be read by this user`, { field, path: absolute });
  return new File([await openAsBlob(absolute)], basename(absolute));
}

/** Audio sent inside the call, decoded and checked against the upload limit. */
export function inlineAudio(audio: InlineAudio, field: string, limits: AudioLimits): File {
  const bytes = Buffer.from(audio.audio_base64, 'base64');
  if (bytes.length === 0) throw invalidField(field, 'decodes to no bytes (base64 of the audio file expected)');
  if (bytes.length > limits.maxUploadBytes) throw tooLarge(field, bytes.length, limits);
  return new File([bytes], audio.filename ?? 'audio', audio.mime_type === undefined ? {} : { type: audio.mime_type });
}
