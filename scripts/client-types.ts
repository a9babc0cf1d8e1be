// Renders src/client/schema.d.ts, the types of the shipped client, from the OpenAPI document.
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';

const BLOB = ts.factory.createTypeReferenceNode('Blob');

const HEADER = `/**
 * Types of Timbre's HTTP API, generated from docs/openapi.json by openapi-typescript.
 * Do not edit: run \`npm run openapi\`.
 */

`;

/** File parts of multipart bodies (`format: binary`) are Blobs a client appends to its form. */
export async function renderClientTypes(document: string): Promise<string> {
  const nodes = await openapiTS(document, {
    silent: true,
    transform: (schema) => (schema.format === 'binary' ? BLOB : undefined),
  });
  return HEADER + astToString(nodes);
}
