import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Static, TObject } from 'typebox';
import { Value } from 'typebox/value';
import { ApiError, envelope } from '../../platform/errors.js';
import type { AudioLimits } from './audio-input.js';
import type { TimbreApi } from './rest.js';

/** What every tool acts with: the REST API as the caller, and what it may send. */
export interface McpContext {
  api: TimbreApi;
  audio: AudioLimits;
  /** TIMBRE_CLONE_MAX_SAMPLES: samples a clone may be made from. */
  maxSamples: number;
}

interface ToolSpec<S extends TObject> {
  name: string;
  description: string;
  /** A TypeBox schema: the JSON Schema tools/list shows, and the check arguments pass before `run`. */
  input: S;
  run(args: Static<S>, context: McpContext): Promise<CallToolResult>;
}

/** A tool as the server lists and calls it. */
export interface McpTool {
  listing: Tool;
  call(args: unknown, context: McpContext): Promise<CallToolResult>;
}

/**
 * Arguments that break the schema are a protocol error (InvalidParams), as the client sent what the
 * listing forbids; what the service refuses (scope, limits, an unknown voice) is a tool error the
 * agent reads: `code: message`, and the envelope as structured content.
 */
export function defineTool<S extends TObject>(spec: ToolSpec<S>): McpTool {
  return {
    listing: {
      name: spec.name,
      description: spec.description,
      // Every tool's arguments are a closed object: a misspelt field is refused, not ignored.
      inputSchema: { type: 'object', properties: spec.input.properties, required: requiredOf(spec.input), additionalProperties: false },
    },
    async call(args, context) {
      if (!Value.Check(spec.input, args)) {
        const problems = Value.Errors(spec.input, args).map((error) => `${error.instancePath || 'arguments'} ${error.message}`);
        throw new McpError(ErrorCode.InvalidParams, `Invalid arguments for ${spec.name}: ${[...new Set(problems)].join('; ')}`);
      }
      try {
        return await spec.run(args, context);
      } catch (error) {
        if (error instanceof ApiError) return toolError(error);
        throw error;
      }
    },
  };
}

/** TypeBox leaves `required` out of an object whose fields are all optional, though its type says it is always there. */
function requiredOf(schema: TObject): string[] {
  const required: unknown = schema.required;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}

export function toolError(error: ApiError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: `${error.code}: ${error.message}` }], structuredContent: { ...envelope(error) } };
}

/** A result read by people (the text) and by programs (the same facts as structured content). */
export function toolResult(text: string, structured: Record<string, unknown>, more: CallToolResult['content'] = []): CallToolResult {
  return { content: [{ type: 'text', text }, ...more], structuredContent: structured };
}
