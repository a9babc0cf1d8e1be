import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app/http.js';
import { createServices, type Services } from '../../src/app/services.js';
import { ALL_BUDGETS, type RateLimits } from '../../src/features/access/scopes.js';
import { loadConfig, type Config } from '../../src/platform/config.js';
import { assertContractKept, removeDir, tempDir } from './timbre.js';

/**
 * The whole service built in this process and driven through Fastify's `inject()`: the same
 * routes, hooks, store and engine host as `timbre serve`, without a process to start or a port to
 * open. For HTTP behaviour that needs no process of its own (tests that kill, fill or time a real
 * server still use startTimbre).
 */
export interface InProcessTimbre {
  app: FastifyInstance;
  services: Services;
  config: Config;
  dataDir: string;
  /** A key with every scope and room in every budget, made as the CLI makes keys (no caller). */
  admin: { key: string; keyId: string };
  /** `inject` with the Host the service accepts and, unless `key` is null, the admin's key. */
  call(options: InjectOptions & { key?: string | null }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Every budget at this limit: a test's own requests never meet the default budgets by accident. */
const ROOMY: RateLimits = Object.fromEntries(ALL_BUDGETS.map((budget) => [budget, 100_000]));

/** `flags` are `timbre serve` flags without their dashes (`{ 'max-text-chars': '100' }`). */
export async function startInProcess(options: { flags?: Record<string, string>; env?: NodeJS.ProcessEnv } = {}): Promise<InProcessTimbre> {
  const dataDir = await tempDir();
  const config = loadConfig({ TIMBRE_LOG_LEVEL: 'warn', TIMBRE_CONTRACT_CHECK: 'true', ...options.env }, { 'data-dir': dataDir, port: '0', ...options.flags });
  const services = createServices(config);
  await services.recover();
  const app = await buildApp(config, services);
  await app.ready();
  const created = services.keys.create({ name: 'admin', rateLimits: ROOMY });
  const admin = { key: created.secret, keyId: created.record.keyId };
  return {
    app,
    services,
    config,
    dataDir,
    admin,
    call: ({ key, headers, ...rest }) =>
      app.inject({
        ...rest,
        headers: { host: '127.0.0.1', ...(key === null ? {} : { 'x-api-key': key ?? admin.key }), ...headers },
      }),
    close: async () => {
      await app.close();
      await services.close();
      await assertContractKept(dataDir);
      await removeDir(dataDir);
    },
  };
}
