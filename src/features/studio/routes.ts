import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { HEADERS, textResponse, withErrors } from '../../platform/http/responses.js';
import type { StudioFile } from './bundle.js';

const config = { public: true } as const;
const tags = ['Studio'];
const HTML = textResponse('The studio (HTML)', ['text/html'], HEADERS.contentTypeOptions);
const ASSET = textResponse(
  'A script, style sheet, font or image of the studio',
  ['text/javascript', 'text/css', 'image/*', 'font/woff2'],
  HEADERS.contentTypeOptions,
);

/** The page may run only its own scripts and talk only to this service: an injected script goes nowhere. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; media-src 'self' blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

function send(request: FastifyRequest, reply: FastifyReply, file: StudioFile) {
  const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  reply
    .type(file.type)
    .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    .header('vary', 'accept-encoding')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', CONTENT_SECURITY_POLICY)
    .header('referrer-policy', 'no-referrer');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(gzip ? file.gzipped : file.body);
}

/** Timbre Studio at `/`: the page and its hashed assets, public (signing in happens on the page). */
export const studioRoutes: FastifyPluginAsyncTypebox<{ bundle: Map<string, StudioFile> | undefined }> = async (app, { bundle }) => {
  const notBuilt = () => new ApiError(503, 'studio_not_built', 'The studio has not been built: run `npm run setup` (it builds studio/dist)');

  app.get('/', {
    config,
    schema: {
      operationId: 'getStudio',
      tags,
      summary: 'Timbre Studio, the web app',
      security: [],
      response: withErrors({ 200: HTML }, { 503: ['studio_not_built'] }),
    },
    handler: async (request, reply) => {
      const page = bundle?.get('index.html');
      if (!page) throw notBuilt();
      return send(request, reply, page);
    },
  });

  app.get('/assets/:file', {
    config,
    schema: {
      operationId: 'getStudioAsset',
      tags,
      summary: 'A file of the studio',
      security: [],
      params: Type.Object({ file: Type.String({ pattern: '^[A-Za-z0-9._-]{1,200}$' }) }),
      response: withErrors({ 200: ASSET }, { 404: ['not_found'], 503: ['studio_not_built'] }),
    },
    handler: async (request, reply) => {
      if (!bundle) throw notBuilt();
      const file = bundle.get(`assets/${request.params.file}`);
      if (!file) throw new ApiError(404, 'not_found', 'No such file in the studio', { file: request.params.file });
      return send(request, reply, file);
    },
  });
};
