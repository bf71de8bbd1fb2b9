// Writes src/generated/openapi.ts from the repository's openapi.json with openapi-typescript
// (`npm run client:types` at the repository root; `npm run client:build`, `npm test` and the
// package's own build and prepack run it first). The file is not committed: openapi.json, which a
// test keeps equal to what the code generates, is the one committed description of the API, and
// the client's types are derived from it wherever the client is built. With --check it writes
// nothing and exits 1 when the file differs from what openapi.json generates now (a build older
// than the document). --openapi FILE reads another document (the test uses it to prove that a
// change is noticed); --quiet says nothing when it writes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';

const HEADER = `/**
 * Generated from openapi.json by openapi-typescript when the client is built: do not edit, and do
 * not commit (git ignores it). \`npm run client:types\` at the repository root writes it again.
 */

`;
const TARGET = new URL('../src/generated/openapi.ts', import.meta.url);

const { values } = parseArgs({
  options: {
    check: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    openapi: { type: 'string' },
  },
});
const source = values.openapi ?? new URL('../../../openapi.json', import.meta.url);
const document = JSON.parse(readFileSync(source, 'utf8'));
const generated = HEADER + astToString(await openapiTS(document));

const current = () => {
  try {
    return readFileSync(TARGET, 'utf8');
  } catch {
    return undefined;
  }
};

if (!values.check) {
  mkdirSync(new URL('.', TARGET), { recursive: true });
  writeFileSync(TARGET, generated);
  if (!values.quiet) process.stdout.write(`Wrote ${TARGET.pathname}\n`);
} else if (current() !== generated) {
  process.stderr.write(
    'clients/typescript/src/generated/openapi.ts is stale or missing: openapi.json changed since the client ' +
      'was built. Run `npm run client:build` (or `npm run client:types`).\n',
  );
  process.exit(1);
}
