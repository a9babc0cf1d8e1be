import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../platform/config.js';
import type { Services } from './services.js';
import { installAuth, installRateLimits, apiKeyRoutes, sessionRoutes } from '../features/access/index.js';
import { loadStudioBundle, studioRoutes } from '../features/studio/index.js';
import { join } from 'node:path';
import { installContractCheck } from '../platform/http/contract-check.js';
import { installErrorHandling } from '../platform/http/error-handler.js';
import { clientErrorHandler, frameworkErrors } from '../platform/http/framework-errors.js';
import { allowedHostSet, installHostGuard } from '../platform/http/host-guard.js';
import { installJsonBody } from '../platform/http/json-body.js';
import { installNumberGuard } from '../platform/http/number-guard.js';
import { installRequestId, newRequestId } from '../platform/http/request-id.js';
import { installOpenApi } from '../platform/http/openapi.js';
import { installUploads } from '../platform/http/uploads.js';
import { RouteTable } from '../platform/http/route-table.js';
import { assetRoutes } from '../features/assets/index.js';
import { downloadRoutes } from '../features/downloads/index.js';
import { transcribeRoutes } from '../features/transcription/index.js';
import { timelineRoutes, mergeTimelineRoutes } from '../features/timeline/index.js';
import { generateRoutes } from '../features/generation/index.js';
import { longFormRoutes, textRoutes } from '../features/long-form/index.js';
import { cloneRoutes, designRoutes } from '../features/cloning/index.js';
import { previewRoutes, voiceRoutes } from '../features/voices/index.js';
import { queueRoutes, systemRoutes } from '../features/system/index.js';
import { taskDeleteRoutes, taskListRoutes, taskRoutes } from '../features/tasks/index.js';
import { projectRoutes } from '../features/projects/index.js';
import { pronunciationRoutes } from '../features/pronunciations/index.js';
import { modelRoutes } from '../features/models/index.js';
import { SHARED_SCHEMAS } from './shared-schemas.js';
import { installStorageQuota } from '../features/storage/index.js';
import { websocketRoutes } from '../features/events/index.js';
import { installOpenAiErrors, OpenAiErrorEnvelopeSchema, openAiRoutes } from '../features/openai/index.js';
import { lazySerializers } from '../platform/http/lazy-serializers.js';
import { mcpRoutes } from '../features/mcp/index.js';
import { INSTALL_DIR } from '../platform/install-dir.js';

const EXPOSED_HEADERS = [
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-task-id',
  'x-audio-duration',
  'x-chunk-take',
  'x-render-id',
  'content-disposition',
  'x-voice-id',
  'x-preview-cached',
  'x-preview-text',
  'x-instructions',
  'x-request-id',
];

/** Every method a route of the API uses; a browser asks before each PUT, PATCH or DELETE. */
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Strips the key from `?api_key=` so it never reaches the logs. */
function redactUrl(url: string): string {
  return url.replace(/([?&]api_key=)[^&]*/g, '$1[redacted]');
}

export async function buildApp(config: Config, services: Services): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: config.maxBodyBytes,
    logger: {
      level: config.logLevel,
      stream: process.stderr,
      serializers: { req: (request) => ({ method: request.method, url: redactUrl(request.url) }) },
    },
    ajv: { customOptions: { removeAdditional: false, allErrors: true, coerceTypes: 'array' } },
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
    return503OnClosing: true,
    frameworkErrors: frameworkErrors(allowedHostSet([...config.allowedHosts, config.host])),
    clientErrorHandler,
    // Ids are at most a few dozen characters; longer parameters are refused (414) before routing.
    routerOptions: { maxParamLength: 500 },
    // Shutdown must not wait on clients that keep connections open.
    forceCloseConnections: true,
    // Sent back as X-Request-Id and logged as reqId.
    genReqId: newRequestId,
  });
  installRequestId(app);

  // Only JSON and multipart bodies are accepted; anything else is answered with 415.
  app.removeContentTypeParser('text/plain');
  installJsonBody(app, config.maxJsonDepth);

  const routes = new RouteTable();
  app.addHook('onRoute', (route) => routes.add(route.url, route.method));
  installErrorHandling(app, routes);
  // Before the contract check: /v1 errors are checked in OpenAI's shape, the one they are sent in.
  installOpenAiErrors(app);
  // No error a client reads may name where Timbre is installed, nor the data or models folder.
  if (config.contractCheck) installContractCheck(app, join(config.dataDir, 'contract-violations.jsonl'), [config.dataDir, config.modelsDir, INSTALL_DIR]);
  // Registered before the guards: its hooks mark upgrade requests, so a refused handshake's socket is closed.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  installHostGuard(app, [...config.allowedHosts, config.host]);
  await app.register(cookie);
  installAuth(app, services.keys, services.sessions);
  if (config.corsOrigins.length > 0) {
    await app.register(cors, {
      origin: config.corsOrigins,
      methods: CORS_METHODS,
      // authorization: OpenAI clients send the key as a Bearer token.
      allowedHeaders: ['content-type', 'x-api-key', 'authorization'],
      exposedHeaders: EXPOSED_HEADERS,
    });
  }
  installRateLimits(app, services.limits);
  // After authentication names the key, before the OpenAPI plugin reads the routes whose 507 it documents.
  installStorageQuota(app, services.storage.usage, config.storageQuotaMb, services.keyLine);
  installNumberGuard(app);
  await installOpenApi(app);
  for (const schema of [...SHARED_SCHEMAS, OpenAiErrorEnvelopeSchema]) app.addSchema(schema);
  await installUploads(app, { maxUploadBytes: config.maxUploadBytes, maxFiles: config.cloneMaxSamples });
  await registerCapabilities(app, config, services);
  return app;
}

/** Every capability's routes, each given only the services it uses. */
async function registerCapabilities(app: FastifyInstance, config: Config, services: Services): Promise<void> {
  await app.register(studioRoutes, { bundle: loadStudioBundle(join(INSTALL_DIR, 'studio', 'dist')) });
  await app.register(sessionRoutes, { sessions: services.sessions, sessionHours: config.sessionHours });
  await app.register(apiKeyRoutes, { keys: services.keys });
  await app.register(systemRoutes, { system: services.system });
  await app.register(modelRoutes, { models: services.models });
  await app.register(voiceRoutes, {
    voices: services.voices,
    dataDir: config.dataDir,
    maxArchiveBytes: config.maxArchiveBytes,
    checkPronunciations: (ids, keyId) => services.pronunciations.checkedDefaults(ids, keyId),
  });
  await app.register(previewRoutes, { previews: services.previews });
  await app.register(cloneRoutes, { cloning: services.cloning, assets: services.assets, voices: services.voices, maxSamples: config.cloneMaxSamples });
  await app.register(designRoutes, { design: services.design, voices: services.voices });
  const fileInto = (projectId: string | undefined, keyId: string) => services.projects.fileInto(projectId, keyId);
  await app.register(projectRoutes, { projects: services.projects });
  await app.register(pronunciationRoutes, { pronunciations: services.pronunciations });
  await app.register(generateRoutes, { generation: services.generation, fileInto });
  await app.register(taskListRoutes, { tasks: services.taskRecords, summaries: services.taskSummaries });
  await app.register(taskRoutes, { tasks: services.tasks });
  await app.register(taskDeleteRoutes, { tasks: services.tasks, removal: services.storage.removal, queue: services.queue });
  await app.register(longFormRoutes, { longForm: services.longForm, tasks: services.tasks, findVoice: (id) => services.voices.get(id), fileInto });
  await app.register(queueRoutes, { queue: services.queue, workers: services.workers });
  await app.register(textRoutes);
  await app.register(assetRoutes, { assets: services.assets, dataDir: config.dataDir, localPathRoots: config.localPathRoots });
  await app.register(downloadRoutes, { downloads: services.downloads });
  await app.register(timelineRoutes, { timeline: services.timeline, tasks: services.tasks, assets: services.assets, dataDir: config.dataDir });
  await app.register(mergeTimelineRoutes, { renderer: services.renderer });
  await app.register(transcribeRoutes, { transcription: services.transcription, assets: services.assets, dataDir: config.dataDir });
  await app.register(openAiRoutes, {
    openai: services.openai,
    transcription: services.transcription,
    assets: services.assets,
    dataDir: config.dataDir,
    fileInto,
  });
  await app.register(mcpRoutes, {
    inject: (options) => app.inject(options),
    maxUploadBytes: config.maxUploadBytes,
    maxBodyBytes: config.maxBodyBytes,
    maxSamples: config.cloneMaxSamples,
  });
  await app.register(websocketRoutes, {
    events: services.events,
    limits: {
      pingSeconds: config.wsPingSeconds,
      maxSubscriptions: config.wsMaxSubscriptions,
      maxBufferedBytes: config.wsMaxBufferedBytes,
      maxMessagesPerMinute: config.wsMaxMessagesPerMinute,
    },
  });
}
