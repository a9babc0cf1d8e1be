// Regenerates docs/openapi.json from the route schemas; a test fails while the checked-in copy is stale.
import { writeFile } from 'node:fs/promises';
import { renderOpenApiDocument } from '../src/app/openapi-document.js';

const target = new URL('../docs/openapi.json', import.meta.url);
await writeFile(target, await renderOpenApiDocument());
process.stdout.write(`Wrote ${target.pathname}\n`);
