import { createHash } from 'node:crypto';

/**
 * A statement's text and how to take its parameters from an input, written in one place so that the
 * two cannot drift. Built once per shape (see Shapes); a request only binds values.
 */
export interface Statement<I = unknown> {
  readonly text: string;
  /**
   * PostgreSQL parses a named statement once per connection and may settle on a generic plan.
   * Statements whose best plan depends on a value (a `LIKE` pattern) have no name: planned afresh.
   */
  readonly name: string | undefined;
  values(input: I): unknown[];
}

/** Numbers a statement's parameters while its text is written: `param(get)` gives `$n`. */
export class StatementBuilder<I> {
  private readonly getters: ((input: I) => unknown)[] = [];

  param(get: (input: I) => unknown): string {
    this.getters.push(get);
    return `$${this.getters.length}`;
  }

  build(text: string, options: { prepared?: boolean } = {}): Statement<I> {
    const getters = [...this.getters];
    const digest = createHash('sha1').update(text).digest('hex').slice(0, 24);
    return {
      text,
      name: options.prepared === false ? undefined : `cia_${digest}`,
      values: (input) => getters.map((get) => get(input)),
    };
  }
}

/**
 * The statements of one query, one per shape: which filters a request uses, not their values (those
 * are parameters), so the cache stays small. `write` must look only at what `shapeOf` distinguishes.
 */
export class Shapes<I> {
  private readonly statements = new Map<string, Statement<I>>();

  constructor(
    private readonly shapeOf: (input: I) => string,
    private readonly write: (input: I, sql: StatementBuilder<I>) => Statement<I>,
  ) {}

  for(input: I): Statement<I> {
    const shape = this.shapeOf(input);
    let found = this.statements.get(shape);
    if (found === undefined) {
      found = this.write(input, new StatementBuilder<I>());
      this.statements.set(shape, found);
    }
    return found;
  }
}

/** A statement of one shape only. */
export function fixedStatement<I>(write: (sql: StatementBuilder<I>) => string, options: { prepared?: boolean } = {}) {
  const builder = new StatementBuilder<I>();
  return builder.build(write(builder), options);
}
