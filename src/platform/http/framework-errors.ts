import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, envelope } from '../errors.js';
import { hostRefusal } from './host-guard.js';
import { newRequestId, REQUEST_ID_HEADER } from './request-id.js';

/** The router's own refusals, before any route or hook runs. */
const ROUTER_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, code: 'invalid_url', message: 'The request path is not valid (malformed percent-encoding)' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'uri_too_long', message: 'A path parameter is longer than any id this service uses' },
};

/**
 * Fastify's `frameworkErrors`: errors the router raises before hooks run (a malformed path, an
 * over-long parameter). They get the error envelope, and the Host check still comes first, so a
 * foreign host learns nothing more from a malformed request than from a good one.
 */
export function frameworkErrors(allowedHosts: ReadonlySet<string>) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = ROUTER_ERRORS[error.code];
    const apiError =
      hostRefusal(request.headers.host, allowedHosts) ??
      (known ? new ApiError(known.status, known.code, known.message) : new ApiError(400, 'invalid_request', 'The request cannot be routed'));
    // Before any hook: the request's id is sent here.
    void reply.code(apiError.statusCode).header(REQUEST_ID_HEADER, request.id).type('application/json; charset=utf-8').send(envelope(apiError));
  };
}

/** The HTTP parser's refusals (no request exists yet, so no Host to check): status, code, message. */
function parserRefusal(error: NodeJS.ErrnoException): ApiError {
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return new ApiError(431, 'headers_too_large', 'The request line and headers are larger than the server accepts (16 KiB)');
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new ApiError(408, 'request_timeout', 'The request was not received in time');
  return new ApiError(400, 'malformed_request', 'The request is not valid HTTP');
}

/**
 * Fastify's `clientErrorHandler`: requests the HTTP parser refuses (headers too large, not HTTP at
 * all, too slow) are answered in the error envelope too, then the connection is closed, as Node does.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  refuseConnection(socket, parserRefusal(error));
}

/** Writes an error answer straight onto a connection no response owns, and closes it. */
export function refuseConnection(socket: Socket, refusal: ApiError): void {
  if (socket.writable) {
    const body = JSON.stringify(envelope(refusal));
    socket.write(
      `HTTP/1.1 ${refusal.statusCode} ${STATUS_CODES[refusal.statusCode]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${newRequestId()}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
