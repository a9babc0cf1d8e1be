/**
 * The studio talks to the service it is served by, through the typed client of `timbre/client`:
 * every path, body and answer is checked against the OpenAPI document at build time. The session
 * cookie authenticates each request, so the page never holds a key.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '../../src/client/schema.js';
export { formData } from '../../src/client/index.js';

export type Schemas = components['schemas'];

export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });

/** Called when the service answers 401 outside sign-in: the session ended (signed out, expired, key revoked). */
let onSignedOut: () => void = () => undefined;
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

api.use({
  onResponse({ response }) {
    if (response.status === 401 && !new URL(response.url).pathname.startsWith('/api/session')) onSignedOut();
    return response;
  },
});

function hasErrorObject(value: unknown): value is { error: { code?: unknown; message?: unknown } } {
  return typeof value === 'object' && value !== null && 'error' in value && typeof value.error === 'object' && value.error !== null;
}

/** The service's own error message, as it sent it, for showing to the person. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (hasErrorObject(error) && typeof error.error.message === 'string') {
    return typeof error.error.code === 'string' ? `${error.error.message} (${error.error.code})` : error.error.message;
  }
  return 'The service did not answer as expected';
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of an answer, or an Error with the service's message (screens show it through `useTask`). */
export async function ok<T>(pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (error !== undefined || !response.ok) throw new Error(errorText(error ?? { error: { message: `${response.status} ${response.statusText}` } }));
  if (data === undefined) throw new Error(`The service sent no body (${response.status})`);
  return data;
}

/** For answers without a body (204): succeeds or throws the service's message. */
export async function done(pending: Promise<Answer<unknown>>): Promise<void> {
  const { error, response } = await pending;
  if (error !== undefined || !response.ok) throw new Error(errorText(error));
}

/** Where a task's stored audio plays from: the session cookie lets an audio element fetch it. */
export const taskAudioUrl = (taskId: string) => `/api/tasks/${encodeURIComponent(taskId)}/audio`;
