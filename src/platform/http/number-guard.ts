import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

interface Problem {
  field: string;
  message: string;
}

/** Where a number out of every range hides in a validated value; paths as the error details name fields. */
function findUnusable(value: unknown, path: string, problems: Problem[]): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) problems.push({ field: path, message: 'must be a finite number' });
    else if (Math.abs(value) > Number.MAX_SAFE_INTEGER)
      problems.push({ field: path, message: `must be between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}` });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => findUnusable(item, `${path}.${index}`, problems));
  } else if (typeof value === 'object' && value !== null && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) findUnusable(item, `${path}.${key}`, problems);
  }
}

/**
 * Numbers reach routes finite and within ±2^53. JSON cannot carry Infinity, but schema validation
 * coerces strings ("Infinity", "1e999", "-1e400" in a query or a body) into numbers that pass
 * `minimum`/`maximum`-free checks and then break arithmetic, SQLite and allocation. One check
 * after validation covers every route, whatever its schema forgets.
 */
export function installNumberGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request: FastifyRequest) => {
    const problems: Problem[] = [];
    findUnusable(request.query, 'query', problems);
    findUnusable(request.params, 'params', problems);
    findUnusable(request.body, 'body', problems);
    if (problems.length === 0) return;
    throw new ApiError(400, 'invalid_request', `Invalid request: ${problems.map((problem) => `${problem.field} ${problem.message}`).join('; ')}`, {
      fields: problems,
    });
  });
}
