import { spawn } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';
import { freePort } from '../src/database/embedded-postgres.js';
import { KEYS, testDataset } from './support/dataset.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * The built server started from a terminal (a real pseudo-terminal from util-linux `script`), as a
 * person runs `npm start`: a log to read, not JSON lines. (Not on a terminal it writes JSON lines:
 * process.e2e-spec.ts.)
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ dataset: testDataset() }); // only for its database, with the test data set
});
afterAll(async () => t.close());

it('on a terminal prints short readable lines, no JSON, and no line for probes and metrics', async () => {
  const port = await freePort();
  const child = spawn('script', ['-qfec', `${process.execPath} dist/main.js`, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', TERM: 'xterm', PORT: String(port), DATABASE_URL: t.databaseUrl },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  child.stdout.on('data', (chunk) => (raw += chunk));
  child.stderr.on('data', (chunk) => (raw += chunk));
  const exit = new Promise((resolve) => child.once('exit', resolve));
  const text = () => stripVTControlCharacters(raw).replaceAll('\r', '');
  try {
    for (let i = 0; i < 200 && !text().includes('is listening on'); i++) await new Promise((r) => setTimeout(r, 100));
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/health/live`)).status).toBe(200);
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
    const res = await fetch(`${base}/v1/catalog/products?pageSize=1`, {
      headers: { Authorization: `Bearer ${KEYS.tenantA}` },
    });
    expect(res.status).toBe(200);
    expect((await fetch(`${base}/v1/catalog/products`)).status).toBe(401);
    await new Promise((r) => setTimeout(r, 300));
  } finally {
    child.stdin.write('\x03'); // Ctrl-C
    await exit;
  }
  const lines = text()
    .split('\n')
    .filter((l) => l.trim() !== '');
  expect(lines.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);
  expect(lines.length).toBeLessThan(15);
  // The banner's base URL is what createClient takes: without /v1 (every path carries it).
  expect(text()).toMatch(/is listening on http:\/\/localhost:\d+$/m);
  expect(text()).toMatch(/^Base URL: http:\/\/localhost:\d+ \(every API path starts with \/v1/m);
  expect(text()).toMatch(/API documentation: http:\/\/localhost:\d+\/docs/);
  expect(text()).toMatch(/^\[[\d:]+\] INFO: GET \/v1\/catalog\/products 200 · \d+ ms · cli_a_all · req_/m);
  expect(text()).toMatch(/^\[[\d:]+\] INFO: GET \/v1\/catalog\/products 401 /m);
  expect(text()).not.toContain('/health/live');
  expect(text()).not.toContain('GET /metrics');
  expect(text()).not.toContain('Mapped {');
  expect(text()).not.toContain(KEYS.tenantA);
  expect(text()).toContain('shut down cleanly');
}, 60_000);
