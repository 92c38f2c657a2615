import { writeFileSync } from 'node:fs';
import { OPENAPI_FILE, renderOpenApi } from '../test/openapi.js';

// Regenerates the committed OpenAPI document from the routes (npm run openapi).
writeFileSync(OPENAPI_FILE, await renderOpenApi());
console.log(`OpenAPI écrit dans ${OPENAPI_FILE}`);
