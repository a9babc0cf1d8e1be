import { api, ok } from '../../api.js';

/** Imports a PLS lexicon (W3C Pronunciation Lexicon) as a new dictionary: the file's text is the body, as `application/pls+xml`. */
export async function importPls(file: File, name: string) {
  const lexicon = await file.text();
  return ok(
    api.POST('/api/pronunciations', {
      params: { query: { name } },
      body: lexicon,
      headers: { 'content-type': 'application/pls+xml' },
      // The lexicon as it is: openapi-fetch would otherwise send it as a JSON string.
      bodySerializer: (body) => (typeof body === 'string' ? body : JSON.stringify(body)),
    }),
  );
}
