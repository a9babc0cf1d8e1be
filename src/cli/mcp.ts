import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createTimbreClient } from '../client/index.js';
import { createMcpServer, TimbreApi } from '../features/mcp/index.js';
import type { Config } from '../platform/config.js';
import { serviceBaseUrl } from './service-url.js';

/**
 * `timbre mcp`: an MCP server on stdin/stdout for desktop assistants, which start it as a command.
 * It talks to the running service with the key in TIMBRE_API_KEY, so every tool runs with that
 * key's scopes and limits, and reads the files the user running it can (paths given to transcribe
 * and clone_voice). Stdout is the protocol: anything else goes to stderr.
 */
export async function mcpCommand(config: Config): Promise<number> {
  const apiKey = config.bootstrapApiKey;
  if (!apiKey) {
    process.stderr.write('timbre mcp: set TIMBRE_API_KEY to a key of the running service (create one with `timbre keys create --name agent`)\n');
    return 2;
  }
  const origin = serviceBaseUrl(config);
  const api = new TimbreApi(createTimbreClient({ baseUrl: origin, apiKey }), origin);
  const server = createMcpServer({ api, audio: { readsLocalFiles: true, maxUploadBytes: config.maxUploadBytes }, maxSamples: config.cloneMaxSamples });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`timbre mcp: serving MCP on stdio for the service at ${origin}\n`);
  // The client ending stdin ends the session.
  process.stdin.once('end', () => void server.close());
  await closed;
  return 0;
}
