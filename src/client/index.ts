/**
 * Timbre's typed HTTP client: openapi-fetch over the types generated from docs/openapi.json, so
 * every path, body, status and header an application uses is checked by its compiler.
 *
 *   import { createTimbreClient } from 'timbre/client';
 *   const timbre = createTimbreClient({ apiKey: process.env.TIMBRE_API_KEY });
 *   const { data, error } = await timbre.GET('/api/voices');
 */
import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export type TimbreClient = Client<paths>;

export interface TimbreClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** The service's address; Timbre listens on http://127.0.0.1:8765 unless told otherwise. */
  baseUrl?: string;
  /** A `tmb_` key, sent as `X-API-Key` on every request. */
  apiKey: string;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8765';

export function createTimbreClient({ baseUrl = DEFAULT_BASE_URL, apiKey, headers, ...options }: TimbreClientOptions): TimbreClient {
  const client = createClient<paths>({ baseUrl, headers, ...options });
  client.use({
    onRequest({ request }) {
      request.headers.set('X-API-Key', apiKey);
      return request;
    },
  });
  return client;
}

/** JSON a multipart field may carry as text (lists of regions, of transcripts). */
type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue | undefined };

/**
 * A multipart part: text fields as strings, numbers or booleans, files as Blobs (a `File` keeps
 * its name), and lists or objects that are not files as JSON text, the way the service reads them.
 */
type FormValue = JsonValue | Blob | readonly Blob[] | undefined;

const isBlobList = (value: unknown): value is readonly Blob[] => Array.isArray(value) && value.every((item) => item instanceof Blob);

/**
 * The `bodySerializer` for operations whose body is `multipart/form-data` (uploads, clones,
 * transcription of a file): each field becomes a part, each Blob a file part.
 *
 *   await timbre.POST('/api/assets', { body: { file }, bodySerializer: formData });
 */
export function formData(body: Record<string, FormValue>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined) continue;
    if (value instanceof Blob) form.append(name, value);
    else if (isBlobList(value)) for (const blob of value) form.append(name, blob);
    else if (typeof value === 'object') form.append(name, JSON.stringify(value));
    else form.append(name, String(value));
  }
  return form;
}
