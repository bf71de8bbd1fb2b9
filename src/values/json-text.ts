/**
 * A JSON value as text, sent as it is. Rows that PostgreSQL writes as JSON text (the typed column
 * writers of src/lists/json-columns.ts, keys in the contract's order): the response is made of these
 * strings without an intermediate object or a second serialization. PostgreSQL's `to_json` escapes
 * strings as JSON.stringify does (the same short escapes, \u00XX for other control characters),
 * numbers and booleans are literals, and no white space is written, so the bytes are those that
 * JSON.stringify would write for the same object (test/bytes.e2e-spec.ts checks it).
 */
export type JsonText = string & { readonly __json: true };
