import type { ListDefinition } from './list-definition.js';

/**
 * What the list engine asks before it reads rows: whether what their writers rely on in the database
 * still holds. Implemented by RowWritersState (src/row-writers/), which checks the database; declared
 * here so that the engine depends on the question, not on what answers it.
 */
export abstract class RowTrust {
  /** Throws (a 503) while the rows of `definition` may be wrong. */
  abstract assertIntact(definition: Pick<ListDefinition, 'row'>): void;
}
