import type { FastifyRequest } from 'fastify';
import { JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../../platform/errors.js';

/** Error codes of these checks, for the route's documented answers. */
export const MCP_REQUEST_ERRORS = { 400: ['invalid_request'], 406: ['not_acceptable'] };

/**
 * What the SDK's transport would refuse in a JSON-RPC error body of its own, refused first in
 * Timbre's error envelope, as every other answer of the service: once the request is handed to the
 * transport, the transport answers on the socket itself.
 */
export function assertTransportCanAnswer(request: FastifyRequest): void {
  if (request.isMultipart()) throw new ApiError(415, 'unsupported_media_type', 'Send JSON-RPC messages as application/json');
  const accept = request.headers.accept ?? '';
  // The transport may answer JSON or an event stream; MCP's Streamable HTTP makes clients accept both.
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
    throw new ApiError(406, 'not_acceptable', 'An MCP client must accept both application/json and text/event-stream (Accept header)', { accept });
  }
  const version = request.headers['mcp-protocol-version'];
  if (typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    throw new ApiError(400, 'invalid_request', `MCP protocol version ${version} is not supported`, { supported: SUPPORTED_PROTOCOL_VERSIONS });
  }
  if (!JSONRPCMessageSchema.safeParse(request.body).success) {
    throw new ApiError(400, 'invalid_request', 'The body is not a JSON-RPC 2.0 request, notification or response', {});
  }
}
