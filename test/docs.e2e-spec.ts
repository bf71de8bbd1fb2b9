import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CLIENT_STATUSES } from '../src/schema/tables/api-client.entity.js';
import { SCOPES } from '../src/auth/scopes.js';
import { CONFIG_VARIABLES } from '../src/config/app-config.js';
import { TAX_CATEGORIES, UNIT_TYPES } from '../src/schema/tables/product.entity.js';
import { PROMOTION_STATUSES } from '../src/schema/tables/promotion.entity.js';
import { createDataSource } from '../src/database/data-source-options.js';
import { STOCK_MOVEMENT_KINDS } from '../src/schema/tables/stock-history.entities.js';
import { COLLECTIONS } from '../src/dataset/dataset.types.js';
import { importDataset } from '../src/dataset/import-dataset.js';
import {
  DATASET_PRODUCT_FIELDS,
  productFieldIsNullable,
  validateDatasetShape,
} from '../src/dataset/validate-dataset.js';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';

/**
 * The documentation a clone has: README.md and docs/. It points only inside the repository (a clone
 * has no ../shared/), its links resolve, and what it says of the data set format is what the
 * importer does.
 */
const DOCS = ['README.md', ...readdirSync('docs').map((f) => join('docs', f))].filter((f) => f.endsWith('.md'));
const read = (path: string): string => readFileSync(path, 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
const anchorsOf = (path: string): string[] =>
  [...read(path).matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => slug(heading));

describe('README and docs/', () => {
  it('point at nothing outside the repository (no ../shared/), in text, code and usage messages', () => {
    const places = [...DOCS, ...filesUnder('src'), ...filesUnder('scripts'), 'Dockerfile', 'docker-compose.yml'];
    const outside = places.filter((path) => /\.\.\/shared\/|\bshared\/(spec|fixtures|research)\b/.test(read(path)));
    expect(outside).toEqual([]);
  });

  it('has only links that resolve to a file of the repository, and to a heading when they name one', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      for (const [, target] of read(doc).matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue; // http:, https:, mailto:
        const [file, anchor] = target.split('#');
        const path = file === '' ? doc : resolve(dirname(doc), file);
        if (!existsSync(path)) broken.push(`${doc}: ${target} (no such file)`);
        else if (anchor && path.endsWith('.md') && !anchorsOf(path).includes(anchor))
          broken.push(`${doc}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("keeps README a newcomer's page, and docs/README.md an index of every page", () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(80);
    for (const part of ['npm install && npm start', 'npm test', 'curl -H "Authorization: Bearer ', '(docs/README.md)'])
      expect([part, readme.includes(part)]).toEqual([part, true]);
    const index = read('docs/README.md');
    for (const page of readdirSync('docs').filter((f) => f !== 'README.md'))
      expect([page, index.includes(`](${page})`)]).toEqual([page, true]);
  });

  it('says which Node.js the image and the project use, as the Dockerfile and package.json do', () => {
    const froms = [...read('Dockerfile').matchAll(/^FROM (\S+)/gm)].map(([, image]) => image);
    expect(froms.length).toBeGreaterThan(0);
    for (const image of froms) expect(image).toMatch(/^node:26-/);
    expect(JSON.parse(read('package.json')).engines.node).toBe('>=20.19');
    expect(read('docs/operations.md')).toMatch(/Node\.js 26/);
    expect(read('README.md')).toMatch(/Node\.js 20\.19 or later.*Node\.js 26/s);
  });
});

/**
 * The figures README and docs/sync.md quote from the benchmark, each marked `<!--bench:KEY-->VALUE`,
 * against the run that docs/performance.md cites for sync: a new run cited there, or an edited
 * figure, fails here until they agree.
 */
function benchFigures(): { run: string; figures: Record<string, string> } {
  const performance = readFileSync('docs/performance.md', 'utf8');
  const section = performance.slice(performance.indexOf('## Sync, compression and overload'));
  const run = /From the run `(bench\/results\/[^`]+\.md)`/.exec(section)?.[1];
  if (!run) throw new Error('docs/performance.md cites no run for sync');
  const result = readFileSync(run, 'utf8');
  const number = (pattern: RegExp): number => {
    const found = pattern.exec(result)?.[1];
    if (found === undefined) throw new Error(`${run} has no ${pattern}`);
    return Number(found);
  };
  const walk = number(/full walk by next links ([\d.]+) s/);
  const rowsPerSecond = number(/full walk by next links [\d.]+ s \((\d+) rows\/s/);
  const stock = number(/; stock rows ([\d.]+) s/);
  const incrementalProducts = number(/Incremental round after .*?: products \d+ rows in ([\d.]+) s/);
  const incrementalStock = number(/Incremental round after .*?, stock \d+ rows in ([\d.]+) s/);
  const vatRound = number(/the next incremental round .*?: \d+ requests, \d+ rows, ([\d.]+) s/);
  const pages = 1_000_000 / 100;
  const grouped = (n: number) => n.toLocaleString('en-US');
  return {
    run,
    figures: {
      'full-walk-s': walk.toFixed(1),
      'full-walk-rows-per-s': grouped(rowsPerSecond),
      'stock-walk-s': stock.toFixed(1),
      'full-copy-s': String(Math.round(walk + stock)),
      'incremental-products-s': incrementalProducts.toFixed(1),
      'incremental-stock-s': incrementalStock.toFixed(1),
      'vat-round-s': vatRound.toFixed(1),
      // The rate limit above which one walk goes no faster: its requests at the service's speed.
      'walk-requests-per-minute': grouped(Math.round(((pages / walk) * 60) / 100) * 100),
    },
  };
}

describe('benchmark figures in README and docs/sync.md', () => {
  const { run, figures } = benchFigures();
  it.each(['README.md', 'docs/sync.md'])(`%s quotes the run docs/performance.md cites (${run})`, (file) => {
    const text = readFileSync(file, 'utf8');
    const quoted = [...text.matchAll(/<!--bench:([a-z-]+)-->([\d.,]+)/g)].map(([, key, value]) => ({ key, value }));
    expect(quoted.length).toBeGreaterThanOrEqual(3);
    expect(quoted).toEqual(quoted.map(({ key }) => ({ key, value: figures[key] ?? `no figure "${key}"` })));
    // The walk and the incremental round, in both.
    for (const key of ['full-walk-s', 'incremental-products-s', 'vat-round-s'])
      expect([key, quoted.some((q) => q.key === key)]).toEqual([key, true]);
  });
});

describe('docs/operations.md', () => {
  it('lists every configuration variable the service reads in its configuration table', () => {
    const table = [...read('docs/operations.md').matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map(([, name]) => name);
    expect(CONFIG_VARIABLES.filter((name) => !table.includes(name))).toEqual([]);
  });
});

describe('the command-line help', () => {
  const help = async (cli: string, ...args: string[]): Promise<string> => {
    const { stdout } = await promisify(execFile)(process.execPath, [`dist/tools/cli/${cli}.js`, ...args]);
    return stdout;
  };

  it('points at the pages of docs/', async () => {
    for (const [cli, page] of [
      ['db-import', 'docs/dataset-format.md'],
      ['admin', 'docs/clients-and-keys.md'],
      ['db-generate', 'docs/performance.md'],
      ['dev-changes', 'docs/sync.md'],
    ] as const) {
      expect([cli, (await help(cli, '--help')).includes(page)]).toEqual([cli, true]);
      expect(existsSync(page)).toBe(true);
    }
  });
});

describe('docs/dataset-format.md', () => {
  const doc = read('docs/dataset-format.md');
  const example = JSON.parse(/```json\n([\s\S]+?)\n```/.exec(doc)![1]) as Record<string, Record<string, unknown>[]>;
  /** The part of the page about one collection. */
  const sectionOf = (collection: string): string => {
    const start = doc.indexOf(`### \`${collection}\``);
    expect([collection, start]).not.toEqual([collection, -1]);
    const end = doc.indexOf('\n### ', start + 1);
    return doc.slice(start, end === -1 ? undefined : end);
  };
  /** The values a field's table row lists in backticks, after the field's own name. */
  const listed = (collection: string, field: string): string[] => {
    const row = sectionOf(collection)
      .split('\n')
      .find((line) => line.startsWith(`| \`${field}\` |`));
    return [...(row ?? '').split('|')[2].matchAll(/`([^`]+)`/g)].map(([, value]) => value);
  };

  it('has an example that the importer takes without a problem, beside the demo data as it says', async () => {
    expect(validateDatasetShape(example).problems).toEqual([]);
    const url = await createTestDatabase();
    const db = createDataSource({ url, poolSize: 1 });
    await db.initialize();
    try {
      // `npm run db:import -- my-data.json && npm start` on the embedded database: the demo data first.
      await importDataset(db, JSON.parse(readFileSync('fixtures/demo.json', 'utf8')), { replace: false });
      const summary = await importDataset(db, example, { replace: false });
      expect(Object.values(summary.counts).every((n) => n > 0)).toBe(true);
    } finally {
      await db.destroy();
      await dropTestDatabase(url);
    }
  });

  /**
   * The keys of the API's Product (the committed document): the page says each is a product field of
   * the same name and format (vatRate as vatRateId), so a public column is documented there.
   */
  const productKeys = Object.keys(
    (JSON.parse(read('openapi.json')) as { components: { schemas: { Product: { properties: object } } } }).components
      .schemas.Product.properties,
  ).map((key) => (key === 'vatRate' ? 'vatRateId' : key));

  it('says rightly that every key of the API product is a product field of the same name', () => {
    expect(productKeys.filter((key) => !DATASET_PRODUCT_FIELDS.includes(key))).toEqual([]);
    expect(sectionOf('products')).toContain('every key of `Product`');
  });

  it('uses and documents every field of every collection that the importer reads', () => {
    const { dataset } = validateDatasetShape(example);
    for (const collection of COLLECTIONS) {
      const fields = Object.keys(dataset[collection][0]).sort();
      // A product field that may be null may be left out (a new nullable column needs no example).
      const used = fields.filter((field) => collection !== 'products' || !productFieldIsNullable(field));
      const inExample = Object.keys(example[collection][0]);
      expect([collection, inExample.filter((key) => !fields.includes(key))]).toEqual([collection, []]);
      expect([collection, used.filter((field) => !inExample.includes(field))]).toEqual([collection, []]);
      const section = sectionOf(collection);
      for (const field of fields) {
        const documented =
          section.includes(`\`${field}\``) || (collection === 'products' && productKeys.includes(field));
        expect([collection, field, documented]).toEqual([collection, field, true]);
      }
    }
    const nested = (value: unknown): string[] => Object.keys((value as Record<string, unknown>[])[0]).sort();
    expect(nested(example.stockLevels[0].costLayers)).toEqual(Object.keys(dataset.stockLevels[0].costLayers[0]).sort());
    expect(nested(example.apiClients[0].keys)).toEqual(Object.keys(dataset.apiClients[0].keys[0]).sort());
  });

  it('lists the enumerations of the code', () => {
    expect(listed('products', 'unitType')).toEqual([...UNIT_TYPES]);
    expect(listed('products', 'taxCategory')).toEqual([...TAX_CATEGORIES]);
    expect(listed('stockMovements', 'kind')).toEqual([...STOCK_MOVEMENT_KINDS]);
    expect(listed('promotions', 'status')).toEqual(expect.arrayContaining([...PROMOTION_STATUSES]));
    expect(listed('apiClients', 'status')).toEqual(expect.arrayContaining([...CLIENT_STATUSES]));
    expect(listed('apiClients', 'scopes')).toEqual([...SCOPES]);
  });
});
