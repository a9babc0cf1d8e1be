import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../platform/config.js';
import { createServices } from './services.js';
import { buildApp } from './http.js';

/** The OpenAPI document exactly as the service serves it, built on a throw-away data directory. */
export async function renderOpenApiDocument(): Promise<string> {
  const dataDir = await mkdtemp(join(tmpdir(), 'timbre-openapi-'));
  const config = loadConfig({}, { 'data-dir': dataDir, 'log-level': 'warn' });
  const services = createServices(config);
  try {
    const app = await buildApp(config, services);
    await app.ready();
    const document = `${JSON.stringify(app.swagger(), null, 2)}\n`;
    await app.close();
    return document;
  } finally {
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
