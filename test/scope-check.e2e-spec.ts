import { Entity } from 'typeorm';
import '../src/app.module.js';
import { definedLists, sqlFileOf } from '../src/lists/list-definition.js';
import { ENTITIES } from '../src/schema/index.js';
import { IdColumn, IdPrimaryColumn } from '../src/schema/columns.js';
import { TenantRows, tenantTables, tenantTablesOf } from '../src/schema/tenant-tables.js';
import type { StatementBuilder } from '../src/database/statement.js';
import { type DataScope, scopeCondition } from '../src/tenancy/data-scope.js';
import { type ScopeShape, unboundReferences } from '../src/tenancy/scope-check.js';
import { committedStatements } from './support/list-reads.js';

/**
 * The run-time half of the tenant boundary (ScopedReader): a statement is refused unless every
 * reference to a table of tenant rows is bound to the scope by conditions ANDed at the top of its
 * WHERE (or, on an outer join's nullable side, its ON). Every committed statement that reads tenant
 * rows (src/queries/) passes; every way of loosening one of its scope conditions is generated from
 * it and must be refused: removed, placed behind an OR, moved into an inner join's ON, bound to
 * another parameter.
 */
const FILES = [...new Set(definedLists().map(sqlFileOf))];
/** Statements of those files that read through SqlReader, not ScopedReader (StoresRepository's store check). */
const UNSCOPED = new Set(['exists']);

/** The committed statements of the files, each with the scope shape its values show. */
const statements = FILES.flatMap((file) =>
  committedStatements(file)
    .filter((s) => !UNSCOPED.has(s.description))
    .map(({ description, text, values }) => {
      const stores = values[1];
      const shape: ScopeShape =
        typeof stores === 'string' && !/^\d+$/.test(stores) && stores.startsWith('sto_')
          ? 'one'
          : Array.isArray(stores)
            ? 'list'
            : 'all';
      return { name: `${file}: ${description} (${shape})`, text, shape };
    }),
);

const refused = async (text: string, shape: ScopeShape): Promise<boolean> =>
  (await unboundReferences(text, shape, tenantTables())).length > 0;

describe('the scope check', () => {
  it.each(statements.map((s) => [s.name, s]))('takes %s', async (_name, s) => {
    expect(await unboundReferences(s.text, s.shape, tenantTables())).toEqual([]);
  });

  /** Every scope condition of a statement (on a store column any table declares): its text and where it stands. */
  const storeColumns = [...new Set([...tenantTables().values()].map((t) => t.store).filter((c) => c !== null))];
  const scopeConditions = new RegExp(
    `\\b[a-z]+\\.(?:tenant_id = \\$1|(?:${storeColumns.join('|')}) = \\$2|(?:${storeColumns.join('|')}) = ANY\\(\\$2\\))`,
    'g',
  );
  const conditions = (text: string): { match: string; index: number }[] =>
    [...text.matchAll(scopeConditions)].map((m) => ({ match: m[0], index: m.index }));
  const replaceAt = (text: string, at: { match: string; index: number }, by: string): string =>
    text.slice(0, at.index) + by + text.slice(at.index + at.match.length);

  it('refuses every statement with any scope condition removed, behind an OR, or on another parameter', async () => {
    let probes = 0;
    for (const s of statements) {
      for (const at of conditions(s.text)) {
        if (s.shape === 'all' && !at.match.includes('tenant_id')) continue;
        const variants = {
          removed: replaceAt(s.text, at, 'true'),
          'behind an OR': replaceAt(s.text, at, `(${at.match} OR true)`),
          'on another parameter': replaceAt(s.text, at, at.match.replace(/\$[12]/, '$9')),
          'negated twice': replaceAt(s.text, at, `NOT (NOT ${at.match})`),
        };
        for (const [how, text] of Object.entries(variants)) {
          probes++;
          expect({ statement: s.name, condition: at.match, how, refused: await refused(text, s.shape) }).toEqual({
            statement: s.name,
            condition: at.match,
            how,
            refused: true,
          });
        }
      }
    }
    expect(probes).toBeGreaterThan(200);
  });

  it('refuses a tenant condition that is only in an inner join, or on the wrong side of an outer join', async () => {
    const bound = `SELECT p.id FROM products p WHERE p.tenant_id = $1`;
    expect(await refused(bound, 'all')).toBe(false);
    expect(
      await refused(`SELECT p.id FROM stores st JOIN products p ON p.store_id = st.id AND p.tenant_id = $1`, 'all'),
    ).toBe(true);
    expect(
      await refused(
        `SELECT p.id FROM products p LEFT JOIN stock_levels s ON s.product_id = p.id WHERE p.tenant_id = $1 AND s.tenant_id = $1`,
        'all',
      ),
    ).toBe(true);
    expect(
      await refused(
        `SELECT p.id FROM products p LEFT JOIN stock_levels s ON s.product_id = p.id AND s.tenant_id = $1 WHERE p.tenant_id = $1`,
        'all',
      ),
    ).toBe(false);
    // A store-limited scope needs the store condition too, on every table that has a store.
    expect(await refused(bound, 'one')).toBe(true);
    expect(await refused(`${bound} AND p.store_id = $2`, 'one')).toBe(false);
    expect(await refused(`${bound} AND p.store_id = $2`, 'list')).toBe(true);
    expect(await refused(`${bound} AND p.store_id = ANY($2)`, 'list')).toBe(false);
    expect(await refused(`SELECT v.id FROM vat_rates v WHERE v.tenant_id = $1`, 'list')).toBe(false);
    // Nested reads are checked too: a subquery, a union side, a sublink.
    expect(await refused(`SELECT * FROM (SELECT p.id FROM products p) x`, 'all')).toBe(true);
    expect(
      await refused(
        `(SELECT p.id FROM products p WHERE p.tenant_id = $1) UNION (SELECT s.product_id FROM stock_levels s)`,
        'all',
      ),
    ).toBe(true);
    expect(await refused(`SELECT ARRAY(SELECT v.id FROM vat_rates v) AS ids`, 'all')).toBe(true);
  });
});

describe('the store boundary, declared per table', () => {
  it('every table of tenant rows declares its store column (an undeclared one is refused)', () => {
    expect(() => tenantTables()).not.toThrow();
    // Probe: a new table with tenant_id whose author declared nothing.
    @Entity({ name: 'probe_rows' })
    class ProbeRow {
      @IdPrimaryColumn() id: string;
      @IdColumn('tenant_id') tenantId: string;
      @IdColumn('store_id') storeId: string;
    }
    expect(() => tenantTablesOf([...ENTITIES, ProbeRow])).toThrow(
      'probe_rows has tenant_id but no @TenantRows declaration',
    );
    // A declaration that names a column the table does not have.
    @Entity({ name: 'probe_misnamed' })
    @TenantRows({ store: 'store_id' })
    class ProbeMisnamed {
      @IdPrimaryColumn() id: string;
      @IdColumn('tenant_id') tenantId: string;
    }
    expect(() => tenantTablesOf([...ENTITIES, ProbeMisnamed])).toThrow(
      'probe_misnamed: @TenantRows names store column store_id',
    );
  });

  it("binds the stores' own rows by their id: the writer writes it, the check requires it", async () => {
    expect(tenantTables().get('stores')).toEqual({ store: 'id' });
    const params: unknown[] = [];
    const sql = { param: (get: unknown) => (params.push(get), `$${params.length}`) } as unknown as StatementBuilder<{
      scope: DataScope;
    }>;
    const one = { tenantId: 'ten_a', storeIds: ['sto_a1'] } as unknown as DataScope;
    expect(scopeCondition(sql, one).on('stores', 's')).toBe('s.tenant_id = $1 AND s.id = $2');
    // Probe: a list statement on stores without its store condition, for a key limited to one store.
    const tenantOnly = 'SELECT s.id, s.name FROM stores s WHERE s.tenant_id = $1 ORDER BY s.id';
    expect(await unboundReferences(tenantOnly, 'one', tenantTables())).toEqual([
      'stores s: no "s.id = $2" ANDed at the top of its WHERE',
    ]);
    expect(await refused(tenantOnly.replace('$1', '$1 AND s.id = $2'), 'one')).toBe(false);
    expect(await refused(tenantOnly.replace('$1', '$1 AND s.id = ANY($2)'), 'list')).toBe(false);
    // A store_id condition would not do: stores have none, and their store is their id.
    expect(await refused(tenantOnly.replace('$1', '$1 AND s.store_id = $2'), 'one')).toBe(true);
  });
});
