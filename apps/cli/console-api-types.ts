import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { loadOpenApiDocument } from '../../adapters/http/docs/openapi-document';
import { projectRoot } from '../../adapters/shared/project-root';

/** Where the console keeps the types generated from the core API's served OpenAPI document. */
export const CONSOLE_API_TYPES_FILE = join(projectRoot(), 'apps', 'console', 'src', 'api', 'schema.d.ts');

const HEADER = `/**
 * Generated from the core API's OpenAPI document (docs/openapi/core-api/*.json, served at /api/openapi.json)
 * by \`npm run console:api-types\`. Do not edit: change the document and regenerate; a test fails when stale.
 */
`;

/** The console's API types, as openapi-typescript writes them for the document the core API serves. */
export async function generateConsoleApiTypes(): Promise<string> {
  const document = loadOpenApiDocument('core-api');
  const ast = await openapiTS(document as unknown as Parameters<typeof openapiTS>[0], { alphabetize: false });
  return HEADER + astToString(ast);
}
