/**
 * A JSON value as text, sent as it is. Rows that PostgreSQL writes as JSON text (`row_to_json(r)::text` over a lateral subquery whose
 * columns are named and ordered as the contract's keys): the response is made of these strings
 * without an intermediate object or a second serialization. PostgreSQL escapes strings as
 * JSON.stringify does (the same short escapes, \u00XX for other control characters), numbers and
 * booleans are literals, and `row_to_json` writes no white space, so the bytes are those that
 * JSON.stringify would write for the same object (test/bytes.e2e-spec.ts checks it).
 */
export type JsonText = string & { readonly __json: true };
