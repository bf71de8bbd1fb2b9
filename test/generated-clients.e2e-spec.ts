import { execFile } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { testTempDir } from './support/temp-dir.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * Clients generated from the committed openapi.json by the three generators integrators use most
 * (openapi-typescript with openapi-fetch, @hey-api/openapi-ts, orval), compiled with tsc and making
 * one filtered call each against the running service. A generator that reads parameters only from
 * the operation (orval, when the document put them on the path item) drops every filter and gets a
 * wider answer without an error: the filter must have taken effect.
 */
const run = promisify(execFile);
const demo = JSON.parse(readFileSync(new URL('../fixtures/demo.json', import.meta.url), 'utf8'));
const DEMO_KEY = 'ck_test_DemoErpSyncKey0000000000000000000001';
const STORE = 'sto_camden';
const bin = (name: string): string => resolve('node_modules', '.bin', name);

/**
 * One small program that calls `listProducts` with `storeId` and `pageSize=2`, then `listStores` with
 * `storeId`, through each client.
 */
const HARNESS = `
import createFetchClient from 'openapi-fetch';
import type { paths } from './openapi-typescript/schema.js';
import { createClient as createHeyClient } from './hey-api/client/index.js';
import { listProducts as heyListProducts, listStores as heyListStores } from './hey-api/sdk.gen.js';
import { listProducts as orvalListProducts, listStores as orvalListStores } from './orval/api.js';

const [base, key, storeId] = process.argv.slice(2);
const headers = { Authorization: 'Bearer ' + key };
const query = { storeId, pageSize: 2 };
type Answer = { status: number; url: string; rows: { storeId?: string; id?: string }[] };

// Every request goes through here: it records the URL, and resolves orval's paths, which its fetch
// client sends as the document's server ('/') has them.
const realFetch = globalThis.fetch;
let url = '';
globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
  const request = input instanceof Request ? input : new Request(new URL(String(input), base), init);
  url = request.url;
  return realFetch(request);
};

const answers: Record<string, Answer> = {};
const stores: Record<string, Answer> = {};
const openapiFetch = createFetchClient<paths>({ baseUrl: base, headers });
const a = await openapiFetch.GET('/v1/catalog/products', { params: { query } });
answers['openapi-typescript'] = { status: a.response.status, url, rows: a.data?.rows ?? [] };
const sa = await openapiFetch.GET('/v1/catalog/stores', { params: { query: { storeId } } });
stores['openapi-typescript'] = { status: sa.response.status, url, rows: sa.data?.rows ?? [] };

const hey = createHeyClient({ baseUrl: base, headers });
const b = await heyListProducts({ client: hey, query });
answers['@hey-api/openapi-ts'] = { status: b.response.status, url, rows: b.data?.rows ?? [] };
const sb = await heyListStores({ client: hey, query: { storeId } });
stores['@hey-api/openapi-ts'] = { status: sb.response.status, url, rows: sb.data?.rows ?? [] };

const c = await orvalListProducts(query, { headers });
answers.orval = { status: c.status, url, rows: c.status === 200 ? c.data.rows : [] };
const sc = await orvalListStores({ storeId }, { headers });
stores.orval = { status: sc.status, url, rows: sc.status === 200 ? sc.data.rows : [] };

console.log(JSON.stringify({ answers, stores }));
`;

describe('clients generated from openapi.json', () => {
  let t: TestApp;
  let base: string;
  type Answers = Record<string, { status: number; url: string; rows: { storeId?: string; id?: string }[] }>;
  let answers: Answers;
  let stores: Answers;

  beforeAll(async () => {
    t = await createTestApp({ dataset: demo });
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;

    const dir = testTempDir('generated-clients');
    const document = resolve('openapi.json');
    // Generated once per run, the three side by side; their imports resolve to this project's packages.
    await Promise.all([
      run(bin('openapi-typescript'), [document, '-o', join(dir, 'openapi-typescript', 'schema.ts')]),
      run(bin('openapi-ts'), ['-i', document, '-o', join(dir, 'hey-api'), '-c', '@hey-api/client-fetch']),
      run(bin('orval'), ['--input', document, '--output', join(dir, 'orval', 'api.ts'), '--client', 'fetch']),
    ]);
    symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(dir, 'harness.ts'), HARNESS);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: ['node'],
          strict: true,
          skipLibCheck: true,
          outDir: 'out',
          rootDir: '.',
        },
        include: ['harness.ts', 'openapi-typescript', 'hey-api', 'orval'],
      }),
    );
    // The generated code and the calls type-check as an integrator's project would compile them.
    await run(process.execPath, [resolve('node_modules', 'typescript', 'bin', 'tsc'), '-p', dir]).catch(
      (error: { stdout: string }) => {
        throw new Error(`tsc failed:\n${error.stdout}`);
      },
    );
    const { stdout } = await run(process.execPath, [join(dir, 'out', 'harness.js'), base, DEMO_KEY, STORE]);
    ({ answers, stores } = JSON.parse(stdout));
  }, 180_000);
  afterAll(async () => t?.close());

  it.each(['openapi-typescript', '@hey-api/openapi-ts', 'orval'])(
    '%s: listProducts({ storeId, pageSize: 2 }) gets 2 rows, all of that store',
    (generator) => {
      const { status, url, rows } = answers[generator];
      const sent = new URL(url).searchParams;
      expect({ status, storeId: sent.get('storeId'), pageSize: sent.get('pageSize') }).toEqual({
        status: 200,
        storeId: STORE,
        pageSize: '2',
      });
      expect(rows.map((row) => row.storeId)).toEqual([STORE, STORE]);
    },
  );

  it.each(['openapi-typescript', '@hey-api/openapi-ts', 'orval'])(
    '%s: listStores({ storeId }) gets that store',
    (generator) => {
      const { status, url, rows } = stores[generator];
      expect({ status, storeId: new URL(url).searchParams.get('storeId') }).toEqual({ status: 200, storeId: STORE });
      expect(rows).toEqual([{ id: STORE, name: 'Camden High Street' }]);
    },
  );
});
