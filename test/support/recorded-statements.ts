import type { INestApplication } from '@nestjs/common';
import { SqlReader } from '../../src/database/sql-reader.js';

export interface RecordedStatement {
  text: string;
  values: readonly unknown[];
  prepared: boolean;
}

/**
 * Records every statement the application's repositories run through its SqlReader (their real
 * text and values, as PostgreSQL receives them), while the statements still run.
 */
export function recordStatements(app: INestApplication): { take(): RecordedStatement[] } {
  const reader = app.get(SqlReader);
  const read = reader.read.bind(reader);
  let recorded: RecordedStatement[] = [];
  reader.read = ((deadlineMs, options, work) =>
    read(deadlineMs, options, (session) =>
      work({
        rows: (statement, values) => {
          recorded.push({ text: statement.text, values, prepared: statement.name !== undefined });
          return session.rows(statement, values);
        },
        tuples: (statement, values) => {
          recorded.push({ text: statement.text, values, prepared: statement.name !== undefined });
          return session.tuples(statement, values);
        },
      }),
    )) as SqlReader['read'];
  return {
    take() {
      const taken = recorded;
      recorded = [];
      return taken;
    },
  };
}
