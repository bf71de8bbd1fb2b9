import type { DataSource } from 'typeorm';
import { readOne } from '../../database/read-queries.js';
import { inScope, type DataScope } from '../../tenancy/data-scope.js';

/**
 * The number of products in a scope, read from product_counts (kept exact by triggers) instead of
 * counting the products themselves: a few rows to sum instead of up to millions to scan.
 */
export async function countProductsInScope(
  dataSource: DataSource,
  scope: DataScope,
  activeOnly: boolean,
): Promise<number> {
  const qb = inScope(dataSource.createQueryBuilder().from('product_counts', 'c'), 'c', scope).select(
    'COALESCE(SUM(c.n), 0)::int',
    'total',
  );
  if (activeOnly) qb.andWhere('c.is_active');
  const row = await readOne<{ total: number }>(qb);
  return row?.total ?? 0;
}
