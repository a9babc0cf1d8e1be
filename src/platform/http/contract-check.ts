import { appendFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isJsonObject, type JsonObject } from './json-object.js';

/**
 * The contract check (`TIMBRE_CONTRACT_CHECK=1`): every response is compared with the OpenAPI
 * document the service serves (status, content type, JSON body, error code, headers), and each
 * mismatch is logged and appended to a file. The integration suite runs with it on and fails on
 * any line in that file, so the document cannot drift from what the service answers.
 */

export interface ContractViolation {
  method: string;
  route: string;
  status: number;
  problem: string;
}

/** Headers a response may carry only when its operation declares them. */
const DECLARED_HEADER = /^(x-|retry-after$)/;

/** HTTP sends no body on HEAD, 204 or 304, whatever a handler passed on (Fastify drops it). */
const sendsBody = (method: string, status: number) => method !== 'HEAD' && status !== 204 && status !== 304;

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

export class ContractChecker {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  private readonly validators = new Map<string, ValidateFunction>();

  /** `serverPaths`: folders of this machine (data, models, installation) no error body may name. */
  constructor(
    private readonly document: JsonObject,
    private readonly serverPaths: readonly string[] = [],
  ) {
    addFormats.default(this.ajv);
    this.ajv.addSchema(document, 'openapi');
  }

  /** Every way the response differs from the document; empty when it matches. */
  check(request: { method: string; route: string }, reply: { status: number; contentType: string; headers: readonly string[]; body: Body }): string[] {
    const { method, route } = request;
    const { status, contentType, headers } = reply;
    const path = route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const verb = method === 'HEAD' ? 'get' : method.toLowerCase();
    const paths = isJsonObject(this.document.paths) ? this.document.paths : {};
    const item = paths[path];
    const operation = isJsonObject(item) ? item[verb] : undefined;
    if (!isJsonObject(operation) || !isJsonObject(operation.responses)) return [`${method} ${path} is not in the document`];
    const response = operation.responses[String(status)];
    if (!isJsonObject(response)) return [`status ${status} is not documented`];
    return [
      ...this.checkHeaders(response, headers),
      ...this.checkBody(response, ['paths', path, verb, 'responses', String(status)], contentType, sendsBody(method, status) ? reply.body : { present: false }),
    ];
  }

  private checkHeaders(response: JsonObject, headers: readonly string[]): string[] {
    const declared = new Set(Object.keys(isJsonObject(response.headers) ? response.headers : {}).map((name) => name.toLowerCase()));
    return headers.filter((name) => DECLARED_HEADER.test(name) && !declared.has(name)).map((name) => `header ${name} is not declared`);
  }

  private checkBody(response: JsonObject, at: string[], contentType: string, body: Body): string[] {
    const content = isJsonObject(response.content) ? response.content : undefined;
    if (!content) return body.present ? [`a body (${contentType}) where none is documented`] : [];
    if (!body.present) return [];
    const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    const documented = Object.keys(content).find((type) => type === mediaType || (type.endsWith('/*') && mediaType.startsWith(type.slice(0, -1))));
    if (!documented) return [`content type ${mediaType || '(none)'} is not documented (${Object.keys(content).join(', ')})`];
    if (mediaType !== 'application/json') return [];
    if (body.text === undefined) return ['a JSON body the check cannot read'];
    let value: unknown;
    try {
      value = JSON.parse(body.text);
    } catch {
      return ['the body is not JSON'];
    }
    const validate = this.validator(`openapi#/${pointer(...at, 'content', documented, 'schema')}`);
    const problems = validate(value) ? [] : (validate.errors ?? []).map((error) => `body${error.instancePath} ${error.message ?? 'is invalid'}`);
    const failed = Number(at.at(-1)) >= 400;
    return [...problems, ...(failed ? this.checkErrorCode(response, value) : []), ...this.checkNoServerPath(value, body.text)];
  }

  /** An error answer's code must be one of the backquoted codes of its status's description. */
  private checkErrorCode(response: JsonObject, value: unknown): string[] {
    const error = isJsonObject(value) && isJsonObject(value.error) ? value.error : undefined;
    if (!error || typeof error.code !== 'string') return [];
    const description = typeof response.description === 'string' ? response.description : '';
    const codes = [...description.matchAll(/`([a-z0-9_]+)`/g)].map((match) => match[1]);
    return codes.includes(error.code) ? [] : [`error code ${error.code} is not documented for this status (${codes.join(', ')})`];
  }

  private checkNoServerPath(value: unknown, text: string): string[] {
    if (!isJsonObject(value) || !isJsonObject(value.error)) return [];
    return this.serverPaths.filter((path) => text.includes(path)).map((path) => `the error names the server path ${path}`);
  }

  private validator(ref: string): ValidateFunction {
    let validate = this.validators.get(ref);
    if (!validate) {
      validate = this.ajv.getSchema(ref) ?? this.ajv.compile({ $ref: ref });
      this.validators.set(ref, validate);
    }
    return validate;
  }
}

/** A response body as the check sees it: JSON arrives serialized, audio as a buffer or a stream. */
interface Body {
  present: boolean;
  text?: string;
}

function bodyOf(payload: unknown): Body {
  if (typeof payload === 'string') return { present: payload.length > 0, text: payload };
  if (Buffer.isBuffer(payload)) return { present: payload.length > 0 };
  return { present: payload !== null && payload !== undefined };
}

/** A check that fails is itself a violation: it must never turn the response it looks at into an error. */
function checkedSafely(check: () => string[]): string[] {
  try {
    return check();
  } catch (error) {
    return [`the check itself failed: ${String(error)}`];
  }
}

/** A plain JSON copy: the check reads the document as data, not through swagger's types. */
function plainDocument(app: FastifyInstance): JsonObject {
  const document: unknown = JSON.parse(JSON.stringify(app.swagger()));
  return isJsonObject(document) ? document : {};
}

/** Checks each response of a route (unknown routes answer the 404/405 envelope, which no operation describes). */
export function installContractCheck(app: FastifyInstance, violationsFile: string, serverPaths: readonly string[]): void {
  let checker: ContractChecker | undefined;
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const route = request.routeOptions.url;
    if (route === undefined || request.method === 'OPTIONS') return payload;
    const contentType = String(reply.getHeader('content-type') ?? '');
    const headers = Object.keys(reply.getHeaders()).map((name) => name.toLowerCase());
    const problems = checkedSafely(() =>
      (checker ??= new ContractChecker(plainDocument(app), serverPaths)).check(
        { method: request.method, route },
        { status: reply.statusCode, contentType, headers, body: bodyOf(payload) },
      ),
    );
    for (const problem of problems) {
      const violation: ContractViolation = { method: request.method, route, status: reply.statusCode, problem };
      request.log.error({ violation }, 'contract violation');
      appendFileSync(violationsFile, `${JSON.stringify(violation)}\n`);
    }
    return payload;
  });
}
