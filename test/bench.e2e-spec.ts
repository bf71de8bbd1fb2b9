import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';

/**
 * `npm run bench` on a small data set, as a newcomer may try it first: it generates the data set,
 * measures one scenario of each server briefly, and writes new result files without touching a
 * tracked one. Its figures are not checked: speed lives in the benchmark, not in tests.
 */
const RESULTS = 'bench/results';

describe('npm run bench', () => {
  let url: string;
  beforeAll(async () => {
    url = await createTestDatabase();
  });
  afterAll(async () => dropTestDatabase(url));

  it('runs on 2,000 products: by id finds its product, and only new result files are written', () => {
    // A fresh clone may have no results folder: the bench makes it.
    const before = new Set(existsSync(RESULTS) ? readdirSync(RESULTS) : []);
    const tracked = [...before].map((f) => [f, readFileSync(join(RESULTS, f), 'utf8')] as const);
    let written: string[] = [];
    try {
      const args = ['bench/run.mjs', '--products', '2000', '--stores', '5', '--tenants', '2'];
      args.push('--duration', '1', '--warmup', '1', '--only', 'by id');
      const env = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: url };
      const out = execFileSync(process.execPath, args, {
        env,
        timeout: 240_000,
        stdio: ['ignore', 'pipe', 'pipe'],
      }).toString();
      expect(out).toMatch(/Generating 2000 products/);
      expect(out).toMatch(/Service and fair server answer the same bytes for all 1 scenarios/);

      const stamp = /Written to bench\/results\/(\S+)\.md/.exec(out)?.[1];
      written = readdirSync(RESULTS).filter((f) => stamp !== undefined && f.startsWith(`${stamp}.`));
      expect(written.map((f) => /^[0-9T-]+Z\.(json|md)$/.exec(f)?.[1]).sort()).toEqual(['json', 'md']);
      const json = JSON.parse(
        readFileSync(
          join(
            RESULTS,
            written.find((f) => f.endsWith('.json'))!,
          ),
          'utf8',
        ),
      ) as {
        results: { scenario: string; service: { ok: number; failed: number }; fair: { ok: number; failed: number } }[];
      };
      const [byId] = json.results;
      expect(byId.scenario).toBe('one product by id');
      // The product exists: every answer was a 200, from both servers.
      expect([byId.service.ok > 0, byId.service.failed, byId.fair.ok > 0, byId.fair.failed]).toEqual([
        true,
        0,
        true,
        0,
      ]);
      for (const [file, text] of tracked)
        expect([file, readFileSync(join(RESULTS, file), 'utf8') === text]).toEqual([file, true]);
    } finally {
      // Only this run's two files: another benchmark may be writing its own beside them.
      for (const f of written) rmSync(join(RESULTS, f));
    }
  });
});
