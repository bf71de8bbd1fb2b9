import { escapeLike, MAX_SEARCH_TERMS, SEARCH_PATTERN_TEXT, searchTerms } from './like-pattern.js';

describe('searchTerms and SEARCH_PATTERN_TEXT', () => {
  const pattern = new RegExp(SEARCH_PATTERN_TEXT, 'u');
  const acceptedByService = (q: string): boolean =>
    searchTerms(q).length >= 1 && searchTerms(q).length <= MAX_SEARCH_TERMS;

  it.each(['cola', ' cola 330 ', 'a\u00a0b', '100% _x\\', 'é ☕', Array(10).fill('t').join(' ')])(
    'accept %j alike',
    (q) => {
      expect(acceptedByService(q)).toBe(true);
      expect(pattern.test(q)).toBe(true);
    },
  );
  it.each([' ', '   ', '\u3000', Array(11).fill('t').join(' ')])('refuse %j alike', (q) => {
    expect(acceptedByService(q)).toBe(false);
    expect(pattern.test(q)).toBe(false);
  });
  it('escapes LIKE wildcards', () => expect(escapeLike('100%_\\')).toBe('100\\%\\_\\\\'));
});
