import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { TIMBRE_VERSION } from '../../platform/install-dir.js';
import { cloneVoice, transcribe } from './audio-tools.js';
import { installResources } from './resources.js';
import { getTask, listVoices, speak } from './speech-tools.js';
import type { McpContext } from './tool.js';

const INSTRUCTIONS =
  'Timbre is a local speech service. list_voices finds a voice, speak says a text with it and returns the audio, transcribe turns ' +
  'a recording into text, clone_voice makes a voice from recordings, get_task reads a task speak started. Each tool needs the API ' +
  'key to hold its scope; a refused call is a tool error `code: message`.';

/**
 * Timbre's MCP server: the low-level `Server`, so that a tool that does not exist is a protocol
 * error (McpServer would answer it as a tool result), with TypeBox schemas as the tools' JSON
 * Schemas. Every tool acts through the REST API as the caller (`context.api`).
 */
export function createMcpServer(context: McpContext): Server {
  const tools = [listVoices, speak, transcribe, cloneVoice(context.maxSamples), getTask];
  const server = new Server({ name: 'timbre', version: TIMBRE_VERSION }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((tool) => tool.listing) }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
    const tool = tools.find((candidate) => candidate.listing.name === params.name);
    if (!tool) {
      const names = tools.map((candidate) => candidate.listing.name).join(', ');
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${params.name}": Timbre's tools are ${names}`);
    }
    return tool.call(params.arguments ?? {}, context);
  });
  installResources(server, context.api);
  return server;
}
