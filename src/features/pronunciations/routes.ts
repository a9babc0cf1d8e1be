import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { Value } from 'typebox/value';
import { create as contentDisposition } from 'content-disposition';
import { HEADERS, textResponse, withErrors } from '../../platform/http/responses.js';
import { callerOf } from '../access/index.js';
import { PLS_MEDIA_TYPES } from './pls-format.js';
import { CreatePronunciationBody, PlsImportQuery, PronunciationParams, PronunciationReadQuery, UpdatePronunciationBody } from './schemas.js';
import type { PronunciationService } from './service.js';

const tags = ['Pronunciations'];
const read = { scope: 'voices:read' } as const;
const write = { scope: 'voices:write' } as const;
const NOT_FOUND = { 404: ['pronunciation_not_found'] };
const RULE_ERRORS = { 400: ['invalid_pls'], 413: ['dictionary_too_large'], 415: ['unsupported_media_type'] };

const PlsBody = Type.String({ contentMediaType: 'application/pls+xml', description: 'A PLS 1.0 lexicon (W3C Pronunciation Lexicon Specification)' });

/** A body either as JSON or as a PLS document (any of its media types). */
function bodyOf<T extends object>(json: T) {
  return { content: { 'application/json': { schema: json }, ...Object.fromEntries(PLS_MEDIA_TYPES.map((type) => [type, { schema: PlsBody }])) } };
}

const DictionaryOrPls = (description: string) => {
  const pls = textResponse(
    'The dictionary as a PLS document (`Accept: application/pls+xml` or `?format=pls`)',
    ['application/pls+xml'],
    HEADERS.contentDisposition,
  );
  return { ...pls, description, content: { 'application/json': { schema: Type.Ref('PronunciationDictionary') }, ...pls.content } };
};

/**
 * The JSON body, as validated against its schema. Only JSON and PLS bodies are read here: another
 * type the service can parse (a multipart form) has no schema on these routes, so it is refused.
 */
function jsonBody<T extends TSchema>(schema: T, request: FastifyRequest): Static<T> {
  if (request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', 'Send the dictionary as JSON or as a PLS document (application/pls+xml)');
  if (!Value.Check(schema, request.body))
    throw new ApiError(400, 'invalid_request', 'The body is not a dictionary', { fields: [{ field: 'body', message: 'is not a dictionary' }] });
  return request.body;
}

function wantsPls(request: FastifyRequest, format: string | undefined): boolean {
  return format === 'pls' || (format === undefined && (request.headers.accept ?? '').toLowerCase().includes('application/pls+xml'));
}

export const pronunciationRoutes: FastifyPluginAsyncTypebox<{ pronunciations: PronunciationService }> = async (app, { pronunciations }) => {
  // Only this plugin's routes take PLS bodies; they arrive as text, within TIMBRE_MAX_BODY_BYTES, and are parsed by the service.
  app.addContentTypeParser([...PLS_MEDIA_TYPES], { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.get('/api/pronunciations', {
    config: read,
    schema: {
      operationId: 'listPronunciations',
      tags,
      summary: 'The caller’s pronunciation dictionaries (and those of the keys beneath it), without their rules',
      response: withErrors({ 200: Type.Object({ dictionaries: Type.Array(Type.Ref('PronunciationSummary')) }) }),
    },
    handler: async (request) => ({ dictionaries: pronunciations.list(callerOf(request).keyId).map((record) => pronunciations.summary(record)) }),
  });

  app.post('/api/pronunciations', {
    config: write,
    schema: {
      operationId: 'createPronunciation',
      tags,
      summary: 'Create a pronunciation dictionary from JSON rules, or import a PLS document',
      description:
        'A PLS body (`Content-Type: application/pls+xml`, `application/xml` or `text/xml`) takes its language from the lexicon’s `xml:lang` and its name from `?name=`.',
      querystring: PlsImportQuery,
      body: bodyOf(CreatePronunciationBody),
      response: withErrors({ 201: Type.Ref('PronunciationDictionary') }, RULE_ERRORS),
    },
    handler: async (request, reply) => {
      const keyId = callerOf(request).keyId;
      const { body } = request;
      const created =
        typeof body === 'string'
          ? pronunciations.importPls(body, request.query.name, keyId)
          : pronunciations.create(jsonBody(CreatePronunciationBody, request), keyId);
      return reply.code(201).send(pronunciations.view(created));
    },
  });

  app.get('/api/pronunciations/:id', {
    config: read,
    schema: {
      operationId: 'getPronunciation',
      tags,
      summary: 'A pronunciation dictionary with its rules, as JSON or as a PLS document',
      params: PronunciationParams,
      querystring: PronunciationReadQuery,
      response: withErrors({ 200: DictionaryOrPls('The dictionary') }, NOT_FOUND),
    },
    handler: async (request, reply) => {
      const dictionary = pronunciations.owned(request.params.id, callerOf(request).keyId);
      if (!wantsPls(request, request.query.format)) return pronunciations.view(dictionary);
      return reply
        .header('content-disposition', contentDisposition(`${dictionary.name}.pls`))
        .type('application/pls+xml; charset=utf-8')
        .send(pronunciations.pls(dictionary));
    },
  });

  app.put('/api/pronunciations/:id', {
    config: write,
    schema: {
      operationId: 'updatePronunciation',
      tags,
      summary: 'Rename a dictionary, change its language or replace its rules (JSON), or replace its rules with a PLS document’s',
      params: PronunciationParams,
      body: bodyOf(UpdatePronunciationBody),
      response: withErrors({ 200: Type.Ref('PronunciationDictionary') }, NOT_FOUND, RULE_ERRORS),
    },
    handler: async (request) => {
      const dictionary = pronunciations.owned(request.params.id, callerOf(request).keyId);
      const { body } = request;
      const updated =
        typeof body === 'string'
          ? pronunciations.updateFromPls(dictionary, body)
          : pronunciations.update(dictionary, jsonBody(UpdatePronunciationBody, request));
      return pronunciations.view(updated);
    },
  });

  app.delete('/api/pronunciations/:id', {
    config: write,
    schema: {
      operationId: 'deletePronunciation',
      tags,
      summary: 'Delete a dictionary; voices and projects that apply it by default no longer do',
      params: PronunciationParams,
      response: withErrors({ 204: Type.Null() }, NOT_FOUND),
    },
    handler: async (request, reply) => {
      pronunciations.delete(pronunciations.owned(request.params.id, callerOf(request).keyId));
      return reply.code(204).send(null);
    },
  });
};
