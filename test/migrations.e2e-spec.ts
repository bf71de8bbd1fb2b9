import { migrate } from '../src/database/data-source-options.js';
import { MIGRATIONS } from '../src/schema/index.js';
import { TRIGGERS } from '../src/schema/sync-triggers.js';
import { adminQuery, databaseUrl, dropTestDatabase, testDatabaseName } from './support/test-database.js';

describe('migrations', () => {
  it('pods that migrate at the same time take turns: each migration is applied once, and none fails', async () => {
    const name = testDatabaseName('migrate_race');
    await adminQuery(`CREATE DATABASE "${name}"`);
    const url = databaseUrl(name);
    try {
      const runs = await Promise.all([migrate({ url }), migrate({ url }), migrate({ url })]);
      expect(runs.flat().sort()).toEqual(MIGRATIONS.map((m) => m.name).sort());
      expect(await migrate({ url })).toEqual([]);
      const pg = await import('pg');
      const client = new pg.default.Client({ connectionString: url });
      await client.connect();
      const { rows } = await client.query('SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name');
      await client.end();
      expect(rows.every((r: { n: number }) => r.n === 1)).toBe(true);
      expect(rows).toHaveLength(MIGRATIONS.length);
    } finally {
      await dropTestDatabase(url);
    }
  });

  it("every trigger on the service's tables is declared (sync-triggers.ts) and fires in its declared mode", async () => {
    const name = testDatabaseName('migrate_triggers');
    await adminQuery(`CREATE DATABASE "${name}"`);
    const url = databaseUrl(name);
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: url });
    try {
      await migrate({ url });
      await client.connect();
      const { rows } = await client.query(`SELECT c.relname AS "table", t.tgname AS name, t.tgenabled AS mode
        FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE NOT t.tgisinternal AND n.nspname = 'public' ORDER BY 1, 2`);
      const byName = (a: { table: string; name: string }, b: { table: string; name: string }): number =>
        `${a.table}.${a.name}`.localeCompare(`${b.table}.${b.name}`);
      expect(rows.sort(byName)).toEqual(TRIGGERS.map((t) => ({ ...t })).sort(byName));
    } finally {
      await client.end().catch(() => undefined);
      await dropTestDatabase(url);
    }
  });

  it('migrate() voids positions after triggers were switched outside the migrations, and sets them back', async () => {
    const name = testDatabaseName('migrate_repair');
    await adminQuery(`CREATE DATABASE "${name}"`);
    const url = databaseUrl(name);
    const pg = await import('pg');
    const client = new pg.default.Client({ connectionString: url });
    const state = async (): Promise<{ void: string; guard: string }> =>
      (await client.query(`SELECT void_xact::text AS void, guard_xact::text AS guard FROM sync_state`)).rows[0];
    try {
      await migrate({ url });
      await client.connect();
      const before = await state();
      expect(await migrate({ url })).toEqual([]);
      expect(await state()).toEqual(before); // nothing changed outside: nothing voided
      await client.query(`ALTER TABLE products DISABLE TRIGGER products_mark_change`);
      const [{ disabledBy }] = (
        await client.query(`SELECT xmin::text AS "disabledBy" FROM pg_trigger WHERE tgname = 'products_mark_change'`)
      ).rows;
      await migrate({ url });
      const after = await state();
      expect(BigInt(after.void)).toBeGreaterThanOrEqual(BigInt(disabledBy));
      const { rows } = await client.query(
        `SELECT tgenabled AS mode FROM pg_trigger WHERE tgname = 'products_mark_change'`,
      );
      expect(rows).toEqual([{ mode: 'A' }]);
      expect(BigInt(after.guard)).toBeGreaterThan(BigInt(before.guard));
    } finally {
      await client.end().catch(() => undefined);
      await dropTestDatabase(url);
    }
  });
});
