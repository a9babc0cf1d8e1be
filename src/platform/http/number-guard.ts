import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

interface Problem {
  field: string;
  message: string;
}

/**
 * Where a number out of every range hides in a validated value; paths as the error details name
 * fields. Walked with a stack of its own, not by recursion, so no nesting can overflow the call stack.
 */
function findUnusable(root: unknown, rootPath: string, problems: Problem[]): void {
  const pending: [unknown, string][] = [[root, rootPath]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, path] = next;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) problems.push({ field: path, message: 'must be a finite number' });
      else if (Math.abs(value) > Number.MAX_SAFE_INTEGER)
        problems.push({ field: path, message: `must be between ${-Number.MAX_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}` });
      continue;
    }
    const entries = Array.isArray(value)
      ? value.map((item, index): [unknown, string] => [item, `${path}.${index}`])
      : typeof value === 'object' && value !== null && !Buffer.isBuffer(value)
        ? Object.entries(value).map(([key, item]): [unknown, string] => [item, `${path}.${key}`])
        : [];
    // Reversed onto the stack, so fields are reported in the order they appear.
    for (let index = entries.length - 1; index >= 0; index--) pending.push(entries[index]!);
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
