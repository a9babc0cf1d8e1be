import type { FastifyInstance } from 'fastify';
import type { Config } from '../platform/config.js';
import { installConnectionLimits } from '../platform/http/connection-limits.js';
import { buildApp } from './http.js';
import { createServices, type Services } from './services.js';
import { prepareWyoming } from './wyoming.js';

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  /** The Wyoming server, when TIMBRE_WYOMING_PORT is set. */
  wyoming?: { url: string };
  close(): Promise<void>;
}

/** Starts the service: storage, bootstrap key, HTTP and WebSocket, and Wyoming when configured. */
export async function startServer(config: Config): Promise<RunningServer> {
  const services = createServices(config);
  try {
    if (config.bootstrapApiKey) {
      const { created, record } = services.keys.ensureBootstrapKey(config.bootstrapApiKey);
      if (created) process.stderr.write(`Created API key ${record.keyId} from TIMBRE_API_KEY with all scopes\n`);
    }
    const wyoming = prepareWyoming(config, services);
    await services.recover();
    const app = await buildApp(config, services);
    installConnectionLimits(app.server, config, app.log);
    await app.listen({ host: config.host, port: config.port });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `http://${host}:${port}`;
    const wyomingServer = await wyoming?.start(app.log, url).catch(async (error: unknown) => {
      await app.close();
      throw error;
    });
    return {
      app,
      services,
      url,
      ...(wyomingServer ? { wyoming: { url: wyomingServer.url } } : {}),
      close: async () => {
        await wyomingServer?.close();
        await app.close();
        await services.close();
      },
    };
  } catch (error) {
    await services.close();
    throw error;
  }
}
