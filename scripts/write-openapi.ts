// Regenerates docs/openapi.json from the route schemas and the client's types from it; a test fails while either is stale.
import { writeFile } from 'node:fs/promises';
import { renderOpenApiDocument } from '../src/app/openapi-document.js';
import { renderClientTypes } from './client-types.js';

const document = await renderOpenApiDocument();
for (const [target, text] of [
  [new URL('../docs/openapi.json', import.meta.url), document],
  [new URL('../src/client/schema.d.ts', import.meta.url), await renderClientTypes(document)],
] as const) {
  await writeFile(target, text);
  process.stdout.write(`Wrote ${target.pathname}\n`);
}
