import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import { createTimbreClient } from '../../client/index.js';
import { ApiError } from '../../platform/errors.js';
import { injectingFetch, type Inject } from '../../platform/http/inject-fetch.js';
import { withErrors } from '../../platform/http/responses.js';
import { presentedKey } from '../access/index.js';
import { TimbreApi } from './rest.js';
import { createMcpServer } from './server.js';
import { assertTransportCanAnswer, MCP_REQUEST_ERRORS } from './request-checks.js';

export interface McpRouteOptions {
  /** The root instance's inject: tools call the REST routes in-process, as the caller. */
  inject: Inject;
  maxUploadBytes: number;
  maxBodyBytes: number;
  maxSamples: number;
}

const tags = ['Agents'];
const DESCRIPTION =
  'The Model Context Protocol over Streamable HTTP, stateless: each POST carries a JSON-RPC message (initialize, tools/list, tools/call, ' +
  'resources/read…) and is answered with JSON. Any valid key gets in, as X-API-Key or Authorization: Bearer; each tool then calls the REST ' +
  'route it stands for with that key, so the key needs that route’s scope and spends its rate limit. See docs/home-assistant-and-agents.md.';
const JsonRpcSchema = Type.Object({ jsonrpc: Type.Literal('2.0') }, { additionalProperties: true, description: 'A JSON-RPC 2.0 message' });

export const mcpRoutes: FastifyPluginAsync<McpRouteOptions> = async (app, { inject, maxUploadBytes, maxBodyBytes, maxSamples }) => {
  const fetch = injectingFetch(inject);

  app.post('/mcp', {
    config: { anyKey: true },
    // Audio travels inside the JSON as base64: room for one upload of the largest size, and the rest of the message.
    bodyLimit: Math.ceil(maxUploadBytes / 3) * 4 + maxBodyBytes,
    schema: {
      operationId: 'mcp',
      tags,
      summary: 'MCP server for AI agents (Streamable HTTP)',
      description: DESCRIPTION,
      body: JsonRpcSchema,
      response: withErrors(
        {
          200: {
            description: 'The JSON-RPC response (a tool’s refusal is a result with isError, not an HTTP error)',
            content: { 'application/json': { schema: JsonRpcSchema } },
          },
          202: { description: 'Accepted: the body held only notifications or responses', type: 'null' },
        },
        MCP_REQUEST_ERRORS,
      ),
    },
    handler: async (request, reply) => {
      // A session cookie lets the studio in, but the tools act with a key: they need the key itself.
      const apiKey = presentedKey(request);
      if (!apiKey) throw new ApiError(401, 'missing_api_key', 'Send an API key in the X-API-Key header or as Authorization: Bearer <key>');
      assertTransportCanAnswer(request);
      const origin = `${request.protocol}://${request.host}`;
      const api = new TimbreApi(createTimbreClient({ baseUrl: origin, apiKey, fetch }), origin);
      const server = createMcpServer({ api, audio: { readsLocalFiles: false, maxUploadBytes }, maxSamples });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      // The transport writes the answer itself; one server per request, closed with it.
      reply.hijack();
      reply.raw.once('close', () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  });
};
