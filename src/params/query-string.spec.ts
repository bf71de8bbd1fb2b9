import { isNotUtf8, NotUtf8Value, parseQueryString } from './query-string.js';

describe('parseQueryString', () => {
  it('reads what node:querystring reads, a URL without a query included', () => {
    expect({ ...parseQueryString(null) }).toEqual({});
    expect({ ...parseQueryString('a=1&b=x+y&b=%C3%A9&c=%zz') }).toEqual({ a: '1', b: ['x y', 'é'], c: '%zz' });
  });

  it('marks a value that is not UTF-8 once decoded, and leaves a repeated one a list', () => {
    const query = parseQueryString('q=%FF&storeId=%C3%28&sku=ok&x=1&x=%FF');
    expect(query.q).toEqual(new NotUtf8Value('%FF'));
    expect(query.storeId).toEqual(new NotUtf8Value('%C3%28'));
    expect(query.sku).toBe('ok');
    expect(Array.isArray(query.x)).toBe(true);
  });

  it.each([
    ['%FF', true],
    ['%C3%28', true],
    ['%ED%A0%80', true],
    ['%C0%AF', true],
    ['%E2%82', true],
    ['%C3%A9', false],
    ['%F0%9F%98%80', false],
    ['100%', false],
    ['%zz%C3%A9', false],
    ['plain', false],
  ])('isNotUtf8(%s) is %s', (raw, expected) => {
    expect(isNotUtf8(raw)).toBe(expected);
  });
});
