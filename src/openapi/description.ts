/** Where /docs serves the document (src/openapi/openapi-document.ts, setupDocs). */
export const DOCUMENT_PATH = '/docs/openapi.json';

/**
 * The document's introduction (info.description). Swagger UI shows it above the operations, so its
 * open part is three lines and a link to the document; the rest is folded in a <details> block
 * (Swagger UI, Redoc and GitHub render it) so that the operations are on the first screen.
 */
export const DESCRIPTION = `
Read-only access for approved integrations (ERPs, web shops, price-comparison and delivery apps) to a
retail tenant's products, categories, customer-facing promotions and exact stock levels. Send
\`Authorization: Bearer <API key>\` on every request (**Authorize**, on the right, in Swagger UI).

**[Download the OpenAPI document (openapi.json)](${DOCUMENT_PATH})** to generate a client or to
validate requests and responses.

<details>
<summary><strong>How the API works</strong>: keys, conventions, keeping a copy in sync, errors, rate limits,
versioning</summary>

## Authentication
Keys are issued to integration clients by the tenant's administrators; they are not JWTs and not
OAuth tokens. Production keys start with \`ck_live_\`, development keys with \`ck_test_\`; each
environment (with its own base address, see the servers) accepts only its own. The tenant comes from
the key: you never send a tenant id. A client may be limited to some stores; anything outside them
answers as not found (\`GET /v1/catalog/stores\` lists the stores a key may read). Each operation
needs one scope, or any one of several (shown on the operation and in its \`x-required-scopes\`
extension).

## Conventions
- Every timestamp is UTC with milliseconds: \`2026-10-02T09:30:00.000Z\`.
- Money and VAT percentages are JSON strings with 2 decimals (\`"1.20"\`); stock quantities are JSON
  strings with 3 decimals (\`"-2.500"\`). Never JSON numbers.
- Lists are ordered by id in byte order (categories by the sortBy rule). \`activeOnly\` defaults to true.
- Paginated operations answer \`{ rows, page, pageSize, total, totalPages }\`; \`total\` counts every
  matching row; a page past the end is a 200 with no rows. To walk a whole list, follow the \`Link\`
  header's \`rel="next"\` URLs.
- Parameters are strict: an unknown, repeated or empty parameter is a 400, as is \`page=1.5\` or
  \`activeOnly=1\`. Booleans are exactly \`true\` or \`false\`; date-times are RFC 3339 with \`Z\` or an offset.
- Every GET operation answers HEAD too: the same status and headers, without a body.

## Keeping a copy in sync
First copy: \`GET …?activeOnly=false&pageSize=100\`, following \`Link\` \`rel="next"\` to the end, upserting
rows by id (stock rows by productId); store the \`Sync-Position\` header. Each later round: the same with
\`&changedSince=<stored position>\` (upsert), then its removals feed (\`/v1/catalog/product-removals\`,
\`/v1/inventory/stock-removals\`) with the same \`changedSince\` (delete what it lists: deleted, moved out of
your view, stores you lost), then store the changes walk's new \`Sync-Position\`. You may see a row twice;
you miss none. A full walk is needed again only when a position is refused.

## Errors
Every non-200 response is \`{ "error": { "code", "message", "details", "requestId" } }\`. Match on
\`code\`: validation_failed (400), unauthorized (401), scope_denied (403), not_found (404),
payload_too_large (413), rate_limited (429), internal_error (500), service_unavailable (503: the service
is over capacity, nothing was done); \`details\` has the shape of its code.
Every response carries \`X-Request-Id\`; send your own (\`^[A-Za-z0-9_.:-]{1,80}$\`) to correlate, and quote
it when reporting a problem. Unknown paths and methods other than GET and HEAD answer 404 not_found.

## Rate limits
Each client has a per-minute budget shared by all its keys; requests without a valid key are counted
per address: 401 while the address has budget left; once it is spent, every request from that address
gets 429 whatever key it sends, until \`Retry-After\` has passed, so key guessing stops there.
The numbers are policy and may change: read them from the \`RateLimit-Policy\` and
\`RateLimit\` headers on every response, and on 429 wait \`Retry-After\` seconds, then retry with
exponential backoff. Never hardcode a limit. Under load a request may also be refused at once, before
any work: 429 when this client asks for more than its share of the capacity, 503 with \`Retry-After\`
when the service is over capacity; both are safe to retry after \`Retry-After\`.

## Versioning
Everything lives under \`/v1\` (API version 1.0.0). A breaking change would come under \`/v2\`; \`/v1\`
would not change behaviour.

</details>
`.trim();
