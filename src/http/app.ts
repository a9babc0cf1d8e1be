import cors from '@fastify/cors';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Services } from '../services/index.js';
import { installAuth } from './auth.js';
import { installErrorHandling } from './error-handler.js';
import { clientErrorHandler, frameworkErrors } from './framework-errors.js';
import { allowedHostSet, installHostGuard } from './host-guard.js';
import { installNumberGuard } from './number-guard.js';
import { installOpenApi } from './openapi.js';
import { installRateLimits } from './rate-limit.js';
import { installUploads } from './uploads.js';
import { RouteTable } from './route-table.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { assetRoutes } from './routes/assets.js';
import { downloadRoutes } from './routes/download.js';
import { transcribeRoutes } from './routes/transcribe.js';
import { timelineRoutes } from './routes/timeline.js';
import { mergeTimelineRoutes } from './routes/merge-timeline.js';
import { generateRoutes } from './routes/generate.js';
import { longFormRoutes } from './routes/long-form.js';
import { cloneRoutes } from './routes/clone.js';
import { designRoutes } from './routes/design.js';
import { previewRoutes } from './routes/previews.js';
import { queueRoutes } from './routes/queue.js';
import { systemRoutes } from './routes/system.js';
import { taskRoutes } from './routes/tasks.js';
import { textRoutes } from './routes/text.js';
import { voiceRoutes } from './routes/voices.js';
import { ErrorEnvelopeSchema } from './schemas.js';
import { websocketRoutes } from './websocket.js';

const EXPOSED_HEADERS = ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-task-id', 'x-audio-duration', 'x-chunk-take', 'x-voice-id', 'x-preview-cached', 'x-preview-text'];

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
    return503OnClosing: true,
    frameworkErrors: frameworkErrors(allowedHostSet([...config.allowedHosts, config.host])),
    clientErrorHandler,
    // Ids are at most a few dozen characters; longer parameters are refused (414) before routing.
    routerOptions: { maxParamLength: 500 },
    // Shutdown must not wait on clients that keep connections open.
    forceCloseConnections: true,
  });

  // Only JSON and multipart bodies are accepted; anything else is answered with 415.
  app.removeContentTypeParser('text/plain');

  const routes = new RouteTable();
  app.addHook('onRoute', (route) => routes.add(route.url, route.method));
  installErrorHandling(app, routes);
  // Registered before the guards: its hooks mark upgrade requests, so a refused handshake's socket is closed.
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  installHostGuard(app, [...config.allowedHosts, config.host]);
  installAuth(app, services.keys);
  if (config.corsOrigins.length > 0) {
    await app.register(cors, { origin: config.corsOrigins, methods: CORS_METHODS, allowedHeaders: ['content-type', 'x-api-key'], exposedHeaders: EXPOSED_HEADERS });
  }
  installRateLimits(app, services.keys);
  installNumberGuard(app);
  await installOpenApi(app);
  app.addSchema(ErrorEnvelopeSchema);
  await installUploads(app, { maxUploadBytes: config.maxUploadBytes, maxFiles: config.cloneMaxSamples });

  await app.register(apiKeyRoutes, { keys: services.keys });
  await app.register(systemRoutes, { system: services.system });
  await app.register(voiceRoutes, { voices: services.voices, config });
  await app.register(previewRoutes, { previews: services.previews });
  await app.register(cloneRoutes, { cloning: services.cloning, assets: services.assets, voices: services.voices, maxSamples: config.cloneMaxSamples });
  await app.register(designRoutes, { design: services.design, voices: services.voices });
  await app.register(generateRoutes, { generation: services.generation });
  await app.register(taskRoutes, { generation: services.generation, longForm: services.longForm });
  await app.register(longFormRoutes, { longForm: services.longForm, generation: services.generation, findVoice: (id) => services.voices.get(id) });
  await app.register(queueRoutes, { queue: services.queue });
  await app.register(textRoutes);
  await app.register(assetRoutes, { assets: services.assets, config });
  await app.register(downloadRoutes, { downloads: services.downloads });
  await app.register(timelineRoutes, { timeline: services.timeline, generation: services.generation, assets: services.assets, config });
  await app.register(mergeTimelineRoutes, { generation: services.generation, timeline: services.timeline, renderer: services.renderer, audio: services.audio });
  await app.register(transcribeRoutes, { transcription: services.transcription, assets: services.assets, config });
  await app.register(websocketRoutes, {
    events: services.events,
    limits: { pingSeconds: config.wsPingSeconds, maxSubscriptions: config.wsMaxSubscriptions, maxBufferedBytes: config.wsMaxBufferedBytes },
  });
  return app;
}
