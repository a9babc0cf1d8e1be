import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { WER_THRESHOLDS } from '../../../../src/platform/engines/pocketsphinx.js';
import { wordErrorRate } from '../../../../src/platform/text/wer.js';
import { REFERENCE_AUDIO } from '../../../helpers/paths.js';
import { durationSeconds, speechSpan } from '../../../helpers/speech-measures.js';
import { cli, compiledTimbre, createKeyWithCli, postMultipart, serverWithAdmin } from '../../../helpers/timbre.js';

const JFK = 'And so, my fellow Americans, ask not what your country can do for you, ask what you can do for your country.';
const JFK_PATH = join(REFERENCE_AUDIO, 'jfk.wav');

describe('`timbre mcp` over stdio (and /mcp over a socket), through the SDK’s own client, against a running `timbre serve`', { timeout: 300_000 }, () => {
  // One engine's presets for the built-in clone to compare: the tool is under test here, not the fit.
  const fixture = serverWithAdmin({ args: ['--clone-base-engines', 'pico'] });
  const clients: Client[] = [];

  /** `timbre mcp` started as a desktop assistant starts it: a command with the key and the port in its environment. */
  async function connect(key: string, port = fixture.server.port): Promise<Client> {
    const client = new Client({ name: 'timbre-test', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [compiledTimbre(), 'mcp'],
      env: { PATH: process.env.PATH ?? '', TIMBRE_API_KEY: key, TIMBRE_PORT: String(port) },
      stderr: 'pipe',
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }

  let agent: Client;
  before(async () => {
    agent = await connect(fixture.admin.key);
  });
  after(() => Promise.all(clients.map((client) => client.close())));

  test('lists the five tools', async () => {
    const { tools } = await agent.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['clone_voice', 'get_task', 'list_voices', 'speak', 'transcribe']);
  });

  test('transcribe of a file path returns the text POST /api/transcribe returns for the same file', async () => {
    const jfk = await readFile(JFK_PATH);
    const rest = await postMultipart(fixture.server.url, fixture.admin.key, '/api/transcribe', [{ name: 'jfk.wav', bytes: jfk }], { language: 'en' });
    assert.equal(rest.status, 200);
    assert.ok(wordErrorRate(JFK, rest.body.text) <= WER_THRESHOLDS.jfk, rest.body.text);
    const result = await agent.callTool({ name: 'transcribe', arguments: { path: JFK_PATH, language: 'en' } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.equal((result.structuredContent as { text: string }).text, rest.body.text);
  });

  test('speak as mp3: the audio decodes to speech, and its link downloads the same bytes with the key', async () => {
    const result = await agent.callTool({ name: 'speak', arguments: { text: 'Good morning. The kettle is on.', voice_id: 'pico:en-US', format: 'mp3' } });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    const content = result.content as { type: string; data?: string; mimeType?: string; uri?: string }[];
    const audio = content.find((item) => item.type === 'audio')!;
    assert.equal(audio.mimeType, 'audio/mpeg');
    const mp3 = Buffer.from(audio.data!, 'base64');
    const structured = result.structuredContent as { task_id: string; duration: number; audio_url: string };
    assert.ok(Math.abs((await durationSeconds(mp3)) - structured.duration) < 0.1, `${structured.duration} s`);
    const span = await speechSpan(mp3);
    assert.ok(span.end - span.start > 1, `speech from ${span.start} to ${span.end} s`);
    assert.equal(structured.audio_url, `${fixture.server.url}/api/tasks/${structured.task_id}/audio`);
    assert.equal(content.find((item) => item.type === 'resource_link')?.uri, structured.audio_url);
    const download = await fetch(structured.audio_url, { headers: { authorization: `Bearer ${fixture.admin.key}` } });
    assert.equal(download.status, 200);
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), mp3);
  });

  test('clone_voice from a file path: the voice id, the similarity as measured and the warnings, as the REST route answers them', async () => {
    const result = await agent.callTool({ name: 'clone_voice', arguments: { name: 'Kennedy', paths: [JFK_PATH], language: 'en' } }, undefined, {
      timeout: 240_000,
    });
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    const made = result.structuredContent as { voice_id: string; similarity: number | null; similarity_measure: string; warnings: unknown[] };
    const answer = await fetch(`${fixture.server.url}/api/voices/${made.voice_id}`, { headers: { 'x-api-key': fixture.admin.key } });
    const voice = (await answer.json()) as typeof made;
    assert.equal(voice.similarity, made.similarity);
    assert.equal(voice.similarity_measure, made.similarity_measure);
    assert.deepEqual(voice.warnings, made.warnings);
    assert.match((result.content as { text: string }[])[0]!.text, new RegExp(`Created voice ${made.voice_id}`));
  });

  test('a path that names no file is a tool error', async () => {
    const result = await agent.callTool({ name: 'transcribe', arguments: { path: join(REFERENCE_AUDIO, 'absent.wav') } });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as { error: { code: string } }).error.code, 'file_not_found');
  });

  test('a key without tts:generate: speak is a tool error insufficient_scope; an unknown tool an MCP error', async () => {
    const reader = await createKeyWithCli(fixture.server.dataDir, 'reader', ['--scopes', 'voices:read']);
    const client = await connect(reader.key);
    const result = await client.callTool({ name: 'speak', arguments: { text: 'Hello.' } });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as { error: { code: string } }).error.code, 'insufficient_scope');
    await assert.rejects(client.callTool({ name: 'shout', arguments: {} }), McpError);
  });

  test('with no service at the port, a tool says the service does not answer', async () => {
    const client = await connect(fixture.admin.key, 1);
    const result = await client.callTool({ name: 'list_voices', arguments: {} });
    assert.equal(result.isError, true);
    assert.equal((result.structuredContent as { error: { code: string } }).error.code, 'service_unreachable');
  });

  test('the service’s own /mcp answers over a real socket too, with the key as X-API-Key', async () => {
    const client = new Client({ name: 'timbre-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', fixture.server.url), { requestInit: { headers: { 'x-api-key': fixture.admin.key } } });
    await client.connect(transport);
    clients.push(client);
    const result = await client.callTool({ name: 'list_voices', arguments: { search: 'pico', limit: 1 } });
    assert.equal((result.structuredContent as { voices: { engine: string }[] }).voices[0]?.engine, 'pico');
  });

  test('without TIMBRE_API_KEY `timbre mcp` exits 2 and says which key it needs', async () => {
    const { code, stdout, stderr } = await cli(['mcp'], { TIMBRE_API_KEY: '' });
    assert.equal(code, 2);
    assert.equal(stdout, '');
    assert.match(stderr, /TIMBRE_API_KEY/);
  });
});
