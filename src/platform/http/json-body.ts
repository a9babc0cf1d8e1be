import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Deepest nesting a JSON body or JSON form field may have (TIMBRE_MAX_JSON_DEPTH). */
    maxJsonDepth: number;
  }
}

const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests arrays and objects deeper than `maxDepth`, read without parsing it (a
 * single pass that skips strings), so a deep body is refused before any structure is built.
 */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

export function jsonTooDeep(maxDepth: number, field?: string): ApiError {
  const where = field === undefined ? 'The JSON body' : `The JSON of the field ${field}`;
  return new ApiError(400, 'json_too_deep', `${where} nests arrays and objects deeper than ${maxDepth} levels (TIMBRE_MAX_JSON_DEPTH)`, {
    max_depth: maxDepth,
    ...(field === undefined ? {} : { field }),
  });
}

/**
 * JSON bodies are parsed by Fastify's own parser (with its prototype-poisoning checks) once they
 * are known to nest at most `maxDepth` levels. V8 parses any depth, but much of what reads a
 * value afterwards (JSON.stringify, validators, walks over the value) recurses, and a few
 * kilobytes of `[` would overflow the stack there: such a body is a 400, not a 500.
 */
export function installJsonBody(app: FastifyInstance, maxDepth: number): void {
  app.decorate('maxJsonDepth', maxDepth);
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (nestsDeeperThan(text, maxDepth)) {
      done(jsonTooDeep(maxDepth), undefined);
      return;
    }
    // Fastify's default parser is the callback form: it answers through `done`.
    void parse(request, text, done);
  });
}
