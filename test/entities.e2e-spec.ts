import type { DataSource } from 'typeorm';
import { createDataSource } from '../src/database/data-source-options.js';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';

/**
 * The entities describe the tables the migrations make, column for column (name, type, nullability),
 * and every table has one: a migration and an entity that drift apart fail here.
 */
let url: string;
let db: DataSource;
beforeAll(async () => {
  url = await createTestDatabase();
  db = createDataSource({ url, poolSize: 1 });
  await db.initialize();
});
afterAll(async () => {
  await db.destroy();
  await dropTestDatabase(url);
});

type Column = { table: string; column: string; type: string; nullable: boolean };

/** information_schema's type names for the column types the entities use. */
const TYPE_NAMES: Record<string, string> = {
  varchar: 'character varying',
  'character varying': 'character varying',
  text: 'text',
  char: 'character',
  character: 'character',
  numeric: 'numeric',
  integer: 'integer',
  int: 'integer',
  bigint: 'bigint',
  boolean: 'boolean',
  timestamptz: 'timestamp with time zone',
  jsonb: 'jsonb',
  xid8: 'xid8',
};

it('every table has an entity, and every entity matches its table', async () => {
  const tables: Column[] = (
    await db.query(`SELECT c.table_name AS "table", c.column_name AS "column",
              CASE WHEN c.data_type = 'USER-DEFINED' OR c.domain_name IS NOT NULL
                   THEN coalesce(bt.typname, c.udt_name) ELSE c.data_type END AS "type",
              c.is_nullable = 'YES' AS "nullable"
         FROM information_schema.columns c
         LEFT JOIN pg_type dt ON dt.typname = c.domain_name
         LEFT JOIN pg_type bt ON bt.oid = dt.typbasetype
        WHERE c.table_schema = 'public' AND c.table_name <> 'schema_migrations'
        ORDER BY 1, 2`)
  ).map((c: Column) => ({ ...c, type: TYPE_NAMES[c.type] ?? c.type }));
  const entities: Column[] = db.entityMetadatas
    .flatMap((entity) =>
      entity.columns.map((column) => {
        const type = String(typeof column.type === 'function' ? column.type.name.toLowerCase() : column.type);
        return {
          table: entity.tableName,
          column: column.databaseName,
          type: column.isArray ? 'ARRAY' : (TYPE_NAMES[type] ?? type),
          nullable: column.isNullable,
        };
      }),
    )
    .sort((a, b) => (a.table + a.column < b.table + b.column ? -1 : 1));
  expect(entities).toEqual(tables);
});
