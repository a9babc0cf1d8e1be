import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { WER_THRESHOLDS } from '../../../../src/platform/engines/pocketsphinx.js';
import { wordErrorRate } from '../../../../src/platform/text/wer.js';
import { inProcessWithAdmin, injectMultipart, injectRequest, mintKey } from '../../../helpers/in-process.js';
import { REFERENCE_AUDIO } from '../../../helpers/paths.js';
import { durationSeconds, speechSpan } from '../../../helpers/speech-measures.js';

const JFK = 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const TOOLS = ['clone_voice', 'get_task', 'list_voices', 'speak', 'transcribe'];

describe('MCP over Streamable HTTP at /mcp, through the SDK’s own client', { timeout: 180_000 }, () => {
  const fixture = inProcessWithAdmin();
  let jfk: Buffer;

  /** A connected client whose key travels as a Bearer token, the way MCP clients send one. */
  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'timbre-test', version: '1.0.0' });
    const url = new URL('/mcp', fixture.server.url);
    await client.connect(new StreamableHTTPClientTransport(url, { fetch: fixture.server.fetch, requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
    return client;
  }

  before(async () => {
    jfk = await readFile(join(REFERENCE_AUDIO, 'jfk.wav'));
  });

  test('the tools are listed with JSON schemas that describe their arguments', async () => {
    const client = await connect(fixture.admin.key);
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), TOOLS);
    const speak = tools.find((tool) => tool.name === 'speak')!;
    assert.deepEqual(speak.inputSchema.required, ['text']);
    assert.equal(speak.inputSchema.additionalProperties, false);
    const properties = speak.inputSchema.properties as Record<string, { type?: string; enum?: string[]; description?: string }>;
    assert.equal(properties.text?.type, 'string');
    assert.ok(properties.format?.enum?.includes('mp3'));
    for (const tool of tools) assert.ok((tool.description ?? '').length > 40, tool.name);
    await client.close();
  });

  test('speak returns audio that decodes to speech as long as the task, a download link and the task id', async () => {
    const client = await connect(fixture.admin.key);
    const result = await client.callTool({ name: 'speak', arguments: { text: 'The quick brown fox jumps over the lazy dog.', voice_id: 'pico:en-US' } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    const content = result.content as { type: string; data?: string; mimeType?: string; uri?: string }[];
    const audio = content.find((item) => item.type === 'audio')!;
    assert.equal(audio.mimeType, 'audio/wav');
    const wav = Buffer.from(audio.data!, 'base64');
    assert.equal(wav.subarray(0, 4).toString('latin1'), 'RIFF');
    const structured = result.structuredContent as { task_id: string; duration: number; audio_url: string; voice_id: string };
    assert.equal(structured.voice_id, 'pico:en-US');
    assert.ok(Math.abs((await durationSeconds(wav)) - structured.duration) < 0.05, `${structured.duration} s`);
    const span = await speechSpan(wav);
    assert.ok(span.end - span.start > 1, `speech from ${span.start} to ${span.end} s`);
    const link = content.find((item) => item.type === 'resource_link')!;
    assert.equal(link.uri, `http://127.0.0.1/api/tasks/${structured.task_id}/audio`);
    const download = await injectRequest(fixture.server, 'GET', new URL(link.uri).pathname, { key: fixture.admin.key });
    assert.equal(download.status, 200);

    const task = await client.callTool({ name: 'get_task', arguments: { task_id: structured.task_id } });
    assert.equal((task.structuredContent as { status: string }).status, 'completed');
    const resource = await client.readResource({ uri: `timbre://tasks/${structured.task_id}` });
    assert.equal(JSON.parse((resource.contents[0] as { text: string }).text).task_id, structured.task_id);
    await client.close();
  });

  test('without voice_id, speak uses the clearest available voice GET /api/voices lists for the language', async () => {
    const listed = await injectRequest(fixture.server, 'GET', '/api/voices?type=preset&language=de&sort=quality&limit=50', { key: fixture.admin.key });
    const clearest = (listed.body.voices as { id: string; available: boolean }[]).find((voice) => voice.available)!;
    const client = await connect(fixture.admin.key);
    const result = await client.callTool({ name: 'speak', arguments: { text: 'Guten Morgen.', language: 'de' } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.equal((result.structuredContent as { voice_id: string }).voice_id, clearest.id);
    await client.close();
  });

  test('voices and tasks are resources: listed, read as JSON, and a missing or malformed one is MCP’s resource-not-found error', async () => {
    const client = await connect(fixture.admin.key);
    assert.deepEqual(
      (await client.listResources()).resources.map((resource) => resource.uri),
      ['timbre://voices'],
    );
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate);
    assert.deepEqual(templates, ['timbre://voices/{voice_id}', 'timbre://tasks/{task_id}']);
    const voice = await client.readResource({ uri: 'timbre://voices/pico:en-US' });
    assert.equal(voice.contents[0]?.mimeType, 'application/json');
    assert.equal(JSON.parse((voice.contents[0] as { text: string }).text).id, 'pico:en-US');
    await assert.rejects(client.readResource({ uri: 'timbre://voices/pico:xx-XX' }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, -32002);
      assert.match(error.message, /voice_not_found/);
      return true;
    });
    // A malformed escape names no resource: not found, not an internal error.
    await assert.rejects(client.readResource({ uri: 'timbre://voices/%E0%A4%A' }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, -32002);
      return true;
    });
    await client.close();
  });

  test('transcribe of uploaded audio returns the text POST /api/transcribe returns for the same file', async () => {
    const rest = await injectMultipart(fixture.server, fixture.admin.key, '/api/transcribe', [{ name: 'jfk.wav', bytes: jfk }], { language: 'en' });
    assert.equal(rest.status, 200);
    const client = await connect(fixture.admin.key);
    const result = await client.callTool({ name: 'transcribe', arguments: { audio_base64: jfk.toString('base64'), filename: 'jfk.wav', language: 'en' } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.ok(wordErrorRate(JFK, rest.body.text) <= WER_THRESHOLDS.jfk, rest.body.text);
    assert.equal((result.structuredContent as { text: string }).text, rest.body.text);
    assert.deepEqual(result.content, [{ type: 'text', text: rest.body.text }]);
    await client.close();
  });

  test('a path is refused over HTTP with a tool error that says to send the bytes', async () => {
    const client = await connect(fixture.admin.key);
    const result = await client.callTool({ name: 'transcribe', arguments: { path: join(REFERENCE_AUDIO, 'jfk.wav') } });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as { error: { code: string } }).error.code, 'path_not_allowed');
    assert.match((result.content as { text: string }[])[0]!.text, /audio_base64/);
    await client.close();
  });

  test('a key without tts:generate: speak is a tool error with Timbre’s code, message and details', async () => {
    const reader = mintKey(fixture.server, 'reader', ['--scopes', 'voices:read']);
    const client = await connect(reader.key);
    const listed = await client.callTool({ name: 'list_voices', arguments: { language: 'en', limit: 3 } });
    assert.equal(listed.isError, undefined);
    assert.equal((listed.structuredContent as { voices: unknown[] }).voices.length, 3);
    const result = await client.callTool({ name: 'speak', arguments: { text: 'Hello.', voice_id: 'pico:en-US' } });
    assert.equal(result.isError, true);
    const { error } = result.structuredContent as { error: { code: string; message: string; details: { required_scope: string } } };
    assert.equal(error.code, 'insufficient_scope');
    assert.equal(error.details.required_scope, 'tts:generate');
    assert.deepEqual(result.content, [{ type: 'text', text: `insufficient_scope: ${error.message}` }]);
    await client.close();
  });

  test('an unknown tool and arguments its schema refuses are MCP errors (InvalidParams), not tool results', async () => {
    const client = await connect(fixture.admin.key);
    await assert.rejects(client.callTool({ name: 'sing', arguments: {} }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, ErrorCode.InvalidParams);
      assert.match(error.message, /Unknown tool "sing".*speak/);
      return true;
    });
    await assert.rejects(client.callTool({ name: 'speak', arguments: { text: 'Hi', speed: 9 } }), (error: unknown) => {
      assert.ok(error instanceof McpError);
      assert.equal(error.code, ErrorCode.InvalidParams);
      assert.match(error.message, /speed/);
      return true;
    });
    await client.close();
  });

  test('without a key /mcp answers 401, without accepting an event stream 406, in Timbre’s envelope; GET and DELETE answer 405 naming POST', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const anonymous = await injectRequest(fixture.server, 'POST', '/mcp', { json: initialize, headers: { accept: 'application/json, text/event-stream' } });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error.code, 'missing_api_key');
    const refused = await injectRequest(fixture.server, 'POST', '/mcp', { key: fixture.admin.key, json: initialize, headers: { accept: 'application/json' } });
    assert.equal(refused.status, 406);
    assert.equal(refused.body.error.code, 'not_acceptable');
    for (const method of ['GET', 'DELETE']) {
      const answer = await injectRequest(fixture.server, method, '/mcp', { key: fixture.admin.key });
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers.allow, 'POST');
    }
  });
});
