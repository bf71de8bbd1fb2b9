import { parse } from 'libpg-query';
import type { TenantColumns } from '../schema/tenant-tables.js';

/** What a scope restricts: every store of the tenant, one store ($2), or a list of stores (ANY($2)). */
export type ScopeShape = 'all' | 'one' | 'list';

type Node = Record<string, unknown>;

/**
 * Where a statement reads tenant rows without being bound to the scope, read off PostgreSQL's own
 * parse tree (libpg-query): every reference to a table that holds tenant rows must carry, as a
 * condition ANDed at the top of its WHERE (or, for the nullable side of an outer join, of its ON),
 * `alias.tenant_id = $1`, and, when the scope names stores and the table has a store, on the store
 * column its @TenantRows declares (`store_id`, or `id` for the stores themselves),
 * `alias.store_id = $2` or `alias.store_id = ANY($2)`. A condition behind an OR, inside a function,
 * only in an inner join's ON, or on another parameter does not count. Returns one line per
 * unbound reference (none: the statement is bound).
 */
export async function unboundReferences(
  sql: string,
  shape: ScopeShape,
  tables: ReadonlyMap<string, TenantColumns>,
): Promise<string[]> {
  return [...(await checkScope(sql, shape, tables)).problems];
}

/** What the check finds in a statement. */
export interface ScopeCheck {
  /** One line per unbound reference (see unboundReferences). */
  readonly problems: readonly string[];
  /**
   * Whether its store conditions read $2: true when the scope names stores and it reads a table with
   * a store column. A statement of rows of the whole tenant only (VAT rates) has no store condition
   * and binds no stores: its $2, if any, is another value.
   */
  readonly readsStores: boolean;
}

/** unboundReferences, and whether the statement's store conditions read $2. */
export async function checkScope(
  sql: string,
  shape: ScopeShape,
  tables: ReadonlyMap<string, TenantColumns>,
): Promise<ScopeCheck> {
  const tree = (await parse(sql)) as unknown as Node;
  const found = { problems: [] as string[], readsStores: false };
  visit(tree, (select) => checkSelect(select, shape, tables, found));
  return found;
}

/** Calls `check` for every SELECT of the tree, however deeply nested (subqueries, unions, sublinks). */
function visit(node: unknown, check: (select: Node) => void): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, check);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const object = node as Node;
  if (object.SelectStmt !== undefined) check(object.SelectStmt as Node);
  for (const value of Object.values(object)) visit(value, check);
}

interface Reference {
  table: string;
  alias: string;
  /** The ON of the outer join whose nullable side it is; null when it is a preserved side. */
  joinQuals: unknown;
}

function checkSelect(
  select: Node,
  shape: ScopeShape,
  tables: ReadonlyMap<string, TenantColumns>,
  found: { problems: string[]; readsStores: boolean },
): void {
  // A set operation (UNION …): each side is a SELECT of its own (the parse tree does not wrap them).
  if (select.op !== undefined && select.op !== 'SETOP_NONE') {
    checkSelect(select.larg as Node, shape, tables, found);
    checkSelect(select.rarg as Node, shape, tables, found);
    return;
  }
  const { problems } = found;
  const references: Reference[] = [];
  for (const item of (select.fromClause as unknown[] | undefined) ?? []) collect(item, null, references);
  const where = conjuncts(select.whereClause);
  for (const ref of references) {
    const columns = tables.get(ref.table);
    if (columns === undefined) continue;
    const conditions = ref.joinQuals === null ? where : conjuncts(ref.joinQuals);
    const place = ref.joinQuals === null ? 'WHERE' : 'ON';
    if (!conditions.some((c) => isCondition(c, ref.alias, 'tenant_id', 1, '='))) {
      problems.push(`${ref.table} ${ref.alias}: no "${ref.alias}.tenant_id = $1" ANDed at the top of its ${place}`);
    }
    if (shape !== 'all' && columns.store !== null) {
      found.readsStores = true;
      const operator = shape === 'one' ? '=' : 'ANY';
      if (!conditions.some((c) => isCondition(c, ref.alias, columns.store!, 2, operator))) {
        const store = `${ref.alias}.${columns.store}`;
        const wanted = shape === 'one' ? `${store} = $2` : `${store} = ANY($2)`;
        problems.push(`${ref.table} ${ref.alias}: no "${wanted}" ANDed at the top of its ${place}`);
      }
    }
  }
}

/** The table references of a FROM item; a table on the nullable side of an outer join keeps its ON. */
function collect(item: unknown, joinQuals: unknown, out: Reference[]): void {
  const node = item as Node;
  if (node.RangeVar !== undefined) {
    const range = node.RangeVar as { relname: string; alias?: { aliasname: string } };
    out.push({ table: range.relname, alias: range.alias?.aliasname ?? range.relname, joinQuals });
    return;
  }
  if (node.JoinExpr !== undefined) {
    const join = node.JoinExpr as { jointype: string; larg: unknown; rarg: unknown; quals?: unknown };
    const quals = join.quals ?? {};
    const leftNullable = join.jointype === 'JOIN_RIGHT' || join.jointype === 'JOIN_FULL';
    const rightNullable = join.jointype === 'JOIN_LEFT' || join.jointype === 'JOIN_FULL';
    collect(join.larg, leftNullable ? quals : joinQuals, out);
    collect(join.rarg, rightNullable ? quals : joinQuals, out);
  }
  // A subquery in FROM is a SELECT of its own: visit checks it.
}

/** The conditions ANDed at the top of an expression (an OR, a NOT or a function is one opaque condition). */
function conjuncts(expression: unknown): unknown[] {
  if (expression === undefined || expression === null) return [];
  const bool = (expression as Node).BoolExpr as { boolop: string; args: unknown[] } | undefined;
  if (bool?.boolop === 'AND_EXPR') return bool.args.flatMap(conjuncts);
  return [expression];
}

/** `alias.column = $n` (either way round), or `alias.column = ANY($n)`. */
function isCondition(
  expression: unknown,
  alias: string,
  column: string,
  param: number,
  operator: '=' | 'ANY',
): boolean {
  const a = (expression as Node).A_Expr as
    { kind: string; name: { String: { sval: string } }[]; lexpr: unknown; rexpr: unknown } | undefined;
  if (a === undefined || a.name.length !== 1 || a.name[0].String.sval !== '=') return false;
  const isColumn = (e: unknown): boolean => {
    const fields = ((e as Node).ColumnRef as { fields: { String?: { sval: string } }[] } | undefined)?.fields;
    return fields?.length === 2 && fields[0].String?.sval === alias && fields[1].String?.sval === column;
  };
  const isParam = (e: unknown): boolean => ((e as Node).ParamRef as { number: number } | undefined)?.number === param;
  if (operator === 'ANY') return a.kind === 'AEXPR_OP_ANY' && isColumn(a.lexpr) && isParam(a.rexpr);
  return a.kind === 'AEXPR_OP' && ((isColumn(a.lexpr) && isParam(a.rexpr)) || (isColumn(a.rexpr) && isParam(a.lexpr)));
}
