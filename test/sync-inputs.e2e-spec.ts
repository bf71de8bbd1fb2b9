import '../src/app.module.js';
import { definedLists, type SyncedListDefinition as ListDefinition } from '../src/lists/list-definition.js';
import { ListStatements } from '../src/lists/list-statements.js';
import { committedStatements, tablesOf } from './support/list-reads.js';
import { createTestApp, type TestApp } from './support/test-app.js';

/**
 * A structural check of what incremental sync rounds rest on: every table a list's rows are read
 * from (the FROM and JOIN clauses of the committed statements in src/queries/ that write rows) is one
 * its definition declares as a sync input, and every sync input has change propagation in the
 * database (a marker column that new rows take from the transaction and a trigger that renews it on
 * every change). A join added to a list without a declared, propagated input fails here.
 */
const LISTS: [file: string, definition: ListDefinition][] = definedLists()
  .filter((d): d is ListDefinition => d.sync !== undefined)
  .map((d) => [`${d.name}.repository.sql`, d]);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

/** The tables of the statements that write rows (`… AS json`): the totals' tables feed no row. */
function rowTables(statements: readonly string[]): Set<string> {
  const tables = new Set<string>();
  for (const text of statements.filter((s) => /\) AS json\n/.test(s))) {
    for (const table of tablesOf(text).values()) tables.add(table);
  }
  return tables;
}

/** The tables a definition declares its rows depend on, with each one's marker column. */
function declaredInputs(definition: ListDefinition): Map<string, string> {
  const statements = new ListStatements(definition);
  const inputs = new Map<string, string>([[definition.from.table, definition.sync.marker]]);
  for (const input of definition.sync.inputs) inputs.set(input.from.table, definition.sync.marker);
  for (const input of statements.parentInputs) inputs.set(input.from.table, input.marker ?? definition.sync.marker);
  return inputs;
}

/** The tables a list's rows read that are not declared sync inputs. */
function undeclared(statements: readonly string[], definition: ListDefinition): string[] {
  const inputs = declaredInputs(definition);
  return [...rowTables(statements)].filter((table) => !inputs.has(table));
}

describe.each(LISTS)('the list of src/queries/%s', (file, definition) => {
  const statements = committedStatements(file)
    .filter((s) => s.description.startsWith('list'))
    .map((s) => s.text);

  it('reads its rows only from tables its definition declares as sync inputs', () => {
    expect(rowTables(statements).size).toBeGreaterThan(0);
    expect(undeclared(statements, definition)).toEqual([]);
  });

  it('would fail the check with a new join that is not a declared input', () => {
    // After the row's last join: the outer statement's WHERE (a subquery's is indented further).
    const joined = statements.map((s) =>
      s.replace('\n WHERE ', '\n  LEFT JOIN categories cat ON cat.id = p.category_id\n WHERE '),
    );
    expect(undeclared(joined, definition)).toEqual(['categories']);
  });

  it('has change propagation for every declared input', async () => {
    for (const [table, marker] of declaredInputs(definition)) {
      const [column] = await t.db.query(
        `SELECT column_default FROM information_schema.columns WHERE table_name = $1::text AND column_name = $2::text`,
        [table, marker],
      );
      expect({ table, marker, default: column?.column_default }).toEqual({ table, marker, default: 'current_xact()' });
      // Renewed on every change: an update trigger on the table itself, or, for the grants of a
      // client's view, triggers on what widens a view (api_clients' allow-lists, new stores).
      const owners = table === 'api_client_store_grants' ? ['api_clients', 'stores'] : [table];
      for (const owner of owners) {
        const triggers = await t.db.query(
          `SELECT t.tgname FROM pg_trigger t JOIN pg_proc f ON f.oid = t.tgfoid
            WHERE t.tgrelid = $1::text::regclass AND NOT t.tgisinternal
              AND (f.proname = 'mark_change' OR f.prosrc LIKE '%grant_stores%' OR f.prosrc LIKE '%current_xact%')`,
          [owner],
        );
        expect({ table, owner, propagated: triggers.length > 0 }).toEqual({ table, owner, propagated: true });
      }
    }
  });
});
