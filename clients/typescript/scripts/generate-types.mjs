// Writes src/generated/openapi.ts from the repository's openapi.json with openapi-typescript
// (`npm run client:types` at the repository root). With --check it writes nothing and exits 1 when
// the committed file differs from what openapi.json generates now. --openapi FILE reads another
// document (the test uses it to prove that a change is noticed).
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = `/**
 * Generated from openapi.json by openapi-typescript: do not edit.
 * Regenerate with \`npm run client:types\` at the repository root after openapi.json changes
 * (a test fails while this file is stale).
 */

`;
const TARGET = new URL('../src/generated/openapi.ts', import.meta.url);

const { values } = parseArgs({
  options: { check: { type: 'boolean', default: false }, openapi: { type: 'string' } },
});
const source = values.openapi ?? new URL('../../../openapi.json', import.meta.url);
const document = JSON.parse(readFileSync(source, 'utf8'));
const generated = HEADER + astToString(await openapiTS(document));

if (!values.check) {
  writeFileSync(TARGET, generated);
  process.stdout.write(`Wrote ${TARGET.pathname}\n`);
} else if (readFileSync(TARGET, 'utf8') !== generated) {
  process.stderr.write(
    'clients/typescript/src/generated/openapi.ts is stale: openapi.json changed since it was generated. ' +
      'Run `npm run client:types` and commit the result.\n',
  );
  process.exit(1);
}
