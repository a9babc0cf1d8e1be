import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { Type, type TObject } from 'typebox';
import { receiveUploads, type UploadedFile } from './uploads.js';
import { ApiError } from '../errors.js';
import { jsonTooDeep, nestsDeeperThan } from './json-body.js';

/**
 * Lets one route take JSON or multipart/form-data against one schema: in preValidation the files
 * are streamed to disk and the text fields become the body, typed by the schema (booleans,
 * numbers, and JSON for arrays and objects), so Fastify validates both forms the same way.
 */
export async function multipartAsBody(request: FastifyRequest, schema: TObject, tempDir: string, maxFiles: number): Promise<UploadedFile[]> {
  const { files, fields } = await receiveUploads(request, tempDir, maxFiles);
  try {
    request.body = coerceFields(fields, schema, request.server.maxJsonDepth);
  } catch (error) {
    await Promise.all(files.map((file) => rm(file.tempPath, { force: true })));
    throw error;
  }
  return files;
}

function coerceFields(fields: Record<string, string>, schema: TObject, maxJsonDepth: number): Record<string, unknown> {
  const properties = schema.properties as Record<string, { type?: string }>;
  return Object.fromEntries(
    Object.entries(fields).map(([name, raw]) => {
      const type = properties[name]?.type;
      // A JSON field nests no deeper than a JSON body may.
      if ((type === 'array' || type === 'object') && nestsDeeperThan(raw, maxJsonDepth)) throw jsonTooDeep(maxJsonDepth, `body.${name}`);
      return [name, coerce(raw, type)];
    }),
  );
}

/** A field that does not parse as its type stays a string, and validation names it. */
function coerce(raw: string, type: string | undefined): unknown {
  switch (type) {
    case 'boolean':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'integer':
    case 'number':
      return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
    case 'array':
    case 'object':
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
    default:
      return raw;
  }
}

/**
 * Documents a multipart form whose parts a handler streams itself (`receiveUpload`). Fastify then
 * validates no parsed body, that is null, so the schema also allows null; the document shows the
 * form as an object (see openapi-finish).
 */
export function multipartForm(fields: Record<string, string>, file: { name: string; description: string; many?: boolean; required?: boolean }) {
  const part = { type: 'string', contentEncoding: 'binary', description: file.description };
  return {
    type: ['object', 'null'],
    properties: {
      [file.name]: file.many ? { type: 'array', items: part } : part,
      ...Object.fromEntries(Object.entries(fields).map(([name, description]) => [name, { type: 'string', description }])),
    },
    ...(file.required === false ? {} : { required: [file.name] }),
  };
}

/**
 * The multipart form of a route that also takes JSON (`multipartAsBody`): the JSON fields plus the
 * file parts. The parts never reach the validated body, so they are optional there.
 */
export function withFileParts(schema: TObject, file: { name: string; description: string; many: boolean }) {
  const part = Type.String({ contentEncoding: 'binary', description: file.description });
  return Type.Object({ ...schema.properties, [file.name]: Type.Optional(file.many ? Type.Array(part) : part) }, { additionalProperties: false });
}

/** The refusal of a request without a body on a route that takes JSON or a multipart form. */
export function bodyRequired(): ApiError {
  return new ApiError(400, 'invalid_request', 'The request needs a JSON or multipart/form-data body', { fields: [{ field: 'body', message: 'is required' }] });
}
