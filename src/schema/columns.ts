import { Column, PrimaryColumn } from 'typeorm';

/** Ids are opaque strings compared and ordered byte-wise (see the initial migration's opaque_id domain). */
export const IdPrimaryColumn = (): PropertyDecorator => PrimaryColumn({ type: 'varchar', length: 128, collation: 'C' });

export const IdColumn = (name: string, options: { nullable?: boolean; primary?: boolean } = {}): PropertyDecorator =>
  Column({
    name,
    type: 'varchar',
    length: 128,
    collation: 'C',
    nullable: options.nullable ?? false,
    primary: options.primary,
  });

/** numeric columns come back from pg as exact decimal strings; they stay strings end to end. */
export const DecimalColumn = (
  name: string,
  precision: number,
  scale: number,
  options: { nullable?: boolean } = {},
): PropertyDecorator => Column({ name, type: 'numeric', precision, scale, nullable: options.nullable ?? false });

export const TimestampColumn = (name: string, options: { nullable?: boolean } = {}): PropertyDecorator =>
  Column({ name, type: 'timestamptz', precision: 3, nullable: options.nullable ?? false });

/**
 * A generated column holding part of a list row's JSON (src/lists/stored-row.ts, the StoredRows
 * migration): written by PostgreSQL, never by the service, read only by the list statements.
 */
export const StoredRowColumn = (name: string): PropertyDecorator =>
  Column({ name, type: 'text', nullable: true, insert: false, update: false, select: false });
