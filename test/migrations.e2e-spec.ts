import { migrate } from '../src/database/data-source-options.js';
import { MIGRATIONS } from '../src/schema/index.js';
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
});
