/**
 * The IMMUTABLE wrappers a stored row's generated columns call (STORED_FORM in
 * src/lists/json-columns.ts writes text with the first, instants with the second): each argument's
 * type and PL/pgSQL body (about twice as fast a call as an SQL function, which is not inlined when it
 * declares itself IMMUTABLE over a STABLE body). Built-ins are named with their schema: a `search_path` cannot shadow them. The
 * service checks that the database's wrappers are these (src/row-writers/row-writers-state.ts): replacing
 * one would not recompute the rows stored with it.
 */
export const STORED_FORM_FUNCTIONS = [
  { name: 'row_json_text', argument: 'text', body: 'BEGIN RETURN pg_catalog.to_json(value)::pg_catalog.text; END' },
  {
    name: 'row_json_instant',
    argument: 'timestamptz',
    body: `BEGIN RETURN pg_catalog.to_char(value AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'); END`,
  },
] as const;
