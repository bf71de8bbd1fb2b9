import type { Answer, Transport } from './transport.js';
import type { Page, PageBody, RowOf, WalkOptions } from './types.js';

/** The URL of a `Link` header's `rel="next"` (RFC 8288), or null. */
export function nextLink(header: string | null): string | null {
  for (const link of (header ?? '').split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(link);
    const rel = match && /;\s*rel\s*=\s*("[^"]*"|[^;\s]*)/i.exec(match[2]);
    if (match && rel && rel[1].replace(/"/g, '').toLowerCase().split(/\s+/).includes('next')) return match[1];
  }
  return null;
}

/** A page's body with what its headers say about the walk. */
export function toPage<Body extends PageBody>(answer: Answer<Body>): Page<Body> {
  const next = nextLink(answer.headers.get('Link'));
  const nextCursor = next === null ? null : new URL(next, 'http://service.invalid').searchParams.get('cursor');
  return { ...answer.body, nextCursor, syncPosition: answer.headers.get('Sync-Position') };
}

/**
 * A list walked by following the `Link` header's `rel="next"` URLs to the end, a page at a time (as it
 * is iterated): every row once, in id order, at constant cost per page. Iterate it for rows, or
 * `pages()` for pages. Each iteration walks the list again from the first page.
 */
export class Listing<Body extends PageBody> implements AsyncIterable<RowOf<Body>> {
  constructor(
    private readonly transport: Transport,
    private readonly firstPath: string,
    private readonly options: WalkOptions = {},
  ) {}

  async *pages(): AsyncGenerator<Page<Body>, void, undefined> {
    let path: string | null = this.firstPath;
    while (path !== null) {
      const answer: Answer<Body> = await this.transport.get<Body>(path, this.options);
      const next = nextLink(answer.headers.get('Link'));
      if (next === path) throw new Error(`the Link header of ${path} points at the same page`);
      yield toPage(answer);
      path = next;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<RowOf<Body>, void, undefined> {
    for await (const page of this.pages()) yield* page.rows as RowOf<Body>[];
  }
}
