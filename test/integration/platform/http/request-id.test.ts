import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { startInProcess, type InProcessTimbre } from '../../../helpers/in-process.js';

/** Log lines the service writes (to stderr) while `action` runs. */
async function logLinesDuring(action: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = (chunk: string | Uint8Array) => lines.push(String(chunk)) > 0;
  try {
    await action();
  } finally {
    process.stderr.write = write;
  }
  return lines.flatMap((line) => line.split('\n').filter((part) => part.startsWith('{'))).map((part) => JSON.parse(part) as Record<string, unknown>);
}

describe('X-Request-Id on every response, and in the log lines of its request', () => {
  let timbre: InProcessTimbre;
  before(async () => {
    timbre = await startInProcess({ env: { TIMBRE_LOG_LEVEL: 'info' } });
  });
  after(() => timbre.close());

  const idOf = (response: LightMyRequestResponse) => String(response.headers['x-request-id']);

  test('answers, refusals by every guard, unknown routes and router errors each carry a new id', async () => {
    const responses = [
      await timbre.call({ method: 'GET', url: '/api/system/info' }),
      await timbre.call({ method: 'GET', url: '/api/voices', key: null }),
      await timbre.call({ method: 'GET', url: '/api/voices', key: 'tb_wrong' }),
      await timbre.call({ method: 'GET', url: '/api/voices', headers: { host: 'evil.example' } }),
      await timbre.call({ method: 'GET', url: '/api/nothing-here' }),
      await timbre.call({ method: 'DELETE', url: '/api/voices' }),
      await timbre.call({ method: 'GET', url: '/api/voices/%E0%A4%A' }),
      await timbre.call({ method: 'GET', url: '/v1/models/gpt-9' }),
      await timbre.call({ method: 'POST', url: '/api/text/split', payload: '{"text":', headers: { 'content-type': 'application/json' } }),
    ];
    assert.deepEqual(
      responses.map((response) => response.statusCode),
      [200, 401, 401, 403, 404, 405, 400, 404, 400],
    );
    const ids = responses.map(idOf);
    for (const id of ids) assert.match(id, /^req_[A-Za-z0-9_-]{16}$/);
    assert.equal(new Set(ids).size, ids.length, 'each request has an id of its own');
  });

  test('an id a client sends is not taken as the request’s', async () => {
    const response = await timbre.call({ method: 'GET', url: '/api/system/info', headers: { 'x-request-id': 'req_mine' } });
    assert.notEqual(idOf(response), 'req_mine');
  });

  test('the log lines of a request carry its id as reqId', async () => {
    let response: LightMyRequestResponse | undefined;
    const lines = await logLinesDuring(async () => {
      response = await timbre.call({ method: 'GET', url: '/api/voices/voice_unknown' });
    });
    const id = idOf(response!);
    const own = lines.filter((line) => line.reqId === id);
    assert.ok(
      own.some((line) => line.msg === 'incoming request'),
      JSON.stringify(lines),
    );
    assert.ok(
      own.some((line) => line.msg === 'request completed' && (line.res as { statusCode: number }).statusCode === 404),
      JSON.stringify(lines),
    );
  });
});
