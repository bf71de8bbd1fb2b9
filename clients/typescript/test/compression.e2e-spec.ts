import { KEYS } from '../../../test/support/dataset.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { createClient } from '../src/index.js';
import { listeningTestApp, raw } from './support/service.js';

/** The client asks for compressed answers and reads them as the plain ones. */
let t: TestApp;
let base: string;
beforeAll(async () => {
  ({ t, base } = await listeningTestApp({}));
});
afterAll(async () => t.close());

it('asks for br or gzip, gets a compressed page, and reads the same rows', async () => {
  const seen: { asked: string | null; coding: string | null }[] = [];
  const client = createClient({
    baseUrl: base,
    apiKey: KEYS.tenantA,
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      const asked = new Headers(init?.headers).get('Accept-Encoding');
      seen.push({ asked, coding: response.headers.get('Content-Encoding') });
      return response;
    },
  });
  const page = await client.products.listPage({ activeOnly: false, pageSize: 100 });
  expect(seen).toEqual([{ asked: 'br, gzip', coding: 'br' }]);
  const plain = await raw(base, '/v1/catalog/products?activeOnly=false&pageSize=100', KEYS.tenantA);
  expect(page.rows).toEqual(plain.body.rows);
});
