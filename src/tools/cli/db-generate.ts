import '../../startup/exit-without-deadlock.js';
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ConfigError, loadConfig } from '../../config/app-config.js';
import { runningEmbeddedUrl } from '../../database/embedded-postgres.js';
import { EMBEDDED_DATABASE, prepareDatabase } from '../../startup/prepare-database.js';
import { generateDataset } from '../../dataset/generate/generate-dataset.js';
import { count } from '../../values/plural.js';

const USAGE = `Usage: npm run db:generate -- [--products 1000000] [--stores 50] [--tenants 20] [--seed 1]

Writes a deterministic benchmark data set straight into DATABASE_URL (unset: the embedded database of
npm start): tenant ten_bench_00 with --products products across --stores stores, plus --tenants - 1
small tenants. Tenants ten_bench_* are replaced; other tenants are untouched. Prints the API keys.
See docs/performance.md.`;

function positiveInt(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > max)
    throw new Error(`--${name} must be a whole number from 1 to ${max}, got "${value}"`);
  return Number(value);
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        products: { type: 'string' },
        stores: { type: 'string' },
        tenants: { type: 'string' },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message.split(/\n|\. /)[0]}\n\n${USAGE}`);
    return 64;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let options;
  try {
    options = {
      products: positiveInt('products', values.products, 1_000_000, 50_000_000),
      stores: positiveInt('stores', values.stores, 50, 999),
      tenants: positiveInt('tenants', values.tenants, 20, 99),
      seed: positiveInt('seed', values.seed, 1, 2 ** 31),
      productsPerSmallTenant: 2000,
    };
  } catch (error) {
    console.error((error as Error).message);
    return 64;
  }
  const config = loadConfig(process.env);
  let url = config.databaseUrl ?? runningEmbeddedUrl(config.dataDir, EMBEDDED_DATABASE);
  let stop = async (): Promise<void> => undefined;
  if (url === null) {
    const prepared = await prepareDatabase(config, (line) => console.error(line));
    url = prepared.config.databaseUrl!;
    stop = async () => prepared.embedded?.stop();
  }
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const client = await pool.connect();
  const started = Date.now();
  let last = '';
  try {
    const result = await generateDataset(client, {
      ...options,
      onProgress: (phase, done, total) => {
        const width = 30;
        const filled = Math.round((done / Math.max(total, 1)) * width);
        const line =
          `${phase.padEnd(12)} [${'#'.repeat(filled)}${' '.repeat(width - filled)}] ` +
          `${done}/${total} ${((Date.now() - started) / 1000).toFixed(0)}s`;
        if (line !== last) process.stderr.write(`\r${line}`);
        last = line;
      },
    });
    process.stderr.write('\n');
    console.log(
      `Generated ${count(options.products, 'product')} in ${count(options.stores, 'store')} ` +
        `(+ ${count(options.tenants - 1, 'small tenant')}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
    );
    console.log(`Key of ten_bench_00 (all scopes, all stores): ${result.keys[0].key}`);
    return 0;
  } finally {
    client.release();
    await pool.end();
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError ? error.message : `Generation failed: ${(error as Error).message ?? error}`,
    );
    process.exit(1);
  },
);
