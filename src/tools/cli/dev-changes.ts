import '../../startup/exit-without-deadlock.js';
import 'reflect-metadata';
import { randomInt } from 'node:crypto';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../../config/app-config.js';
import { createDataSource } from '../../database/data-source-options.js';
import { commandDatabase } from '../../startup/command-database.js';
import { makeDevChanges } from '../dev/dev-changes.js';

const USAGE = 'Usage: npm run dev:changes -- [--seed N] [--tenant TENANT_ID] [--json]';
/** The demo data set's larger tenant, which the demo keys npm start prints read. */
const DEMO_TENANT = 'ten_cornershop';

/**
 * `npm run dev:changes`: a few random changes to the local database (docs/sync.md), for a newcomer to
 * watch an incremental sync round bring them. A development command: refused with APP_ENV=production.
 */
async function main(): Promise<number> {
  const config = loadConfig(process.env);
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      tenant: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) {
    console.log(
      `${USAGE}\n\nMakes a few changes in the local database: a product deleted and one moved to another store, ` +
        'prices, a deactivation, stock levels, a VAT rate.\nThe same --seed on the same data makes the same changes ' +
        '(a random one when not given, printed).\nSee docs/sync.md (Watching a round bring changes, locally).',
    );
    return 0;
  }
  const seed = values.seed === undefined ? randomInt(1, 2 ** 31 - 1) : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 2 ** 32 - 1) {
    console.error(`Error: --seed must be a whole number from 0 to ${2 ** 32 - 1}, got "${values.seed}" (${USAGE})`);
    return 1;
  }
  if (config.appEnv === 'production') {
    console.error('dev:changes is a development command: it does not run with APP_ENV=production');
    return 1;
  }
  const database = await commandDatabase(config);
  const db = createDataSource({ url: database.url, poolSize: 1 });
  await db.initialize();
  try {
    let tenantId = values.tenant;
    if (tenantId === undefined) {
      const tenants: { id: string }[] = await db.query(
        `SELECT id FROM tenants ORDER BY id = $1 DESC, (SELECT count(*) FROM products p WHERE p.tenant_id = tenants.id) DESC, id LIMIT 1`,
        [DEMO_TENANT],
      );
      tenantId = tenants[0]?.id;
    }
    const [known] = await db.query(`SELECT 1 FROM tenants WHERE id = $1`, [tenantId ?? '']);
    if (tenantId === undefined || known === undefined) {
      console.error(`Error: no tenant "${tenantId ?? ''}" (${USAGE})`);
      return 1;
    }
    const changes = await makeDevChanges(db, tenantId, seed);
    if (values.json) {
      console.log(JSON.stringify({ seed, tenantId, changes }, null, 2));
      return 0;
    }
    console.log(
      `Changed in tenant ${tenantId} (seed ${seed}: --seed ${seed} makes the same changes on the same data):`,
    );
    for (const c of changes) console.log(`  ${c.kind.padEnd(12)} ${c.id.padEnd(24)} ${c.from} -> ${c.to}`);
    console.log(
      'An incremental round (changedSince=<your Sync-Position>) brings them: its changes walk what changed, ' +
        'its removals walk what left your view (the deleted product; the moved one where its new store is ' +
        'not in your view); see docs/sync.md.',
    );
    return 0;
  } finally {
    await db.destroy();
    await database.release();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `Error: ${(error as Error).message ?? error}`);
    process.exit(1);
  },
);
