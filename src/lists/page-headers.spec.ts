import { listUrl } from './page-headers.js';

describe('listUrl (the Link URLs of a list page)', () => {
  it('leaves out page and cursor, however their names are escaped', () => {
    expect(listUrl('/v1/catalog/products?pageSize=1&p%61ge=2&%63ursor=x&q=a', '/v1/catalog/products')).toEqual({
      path: '/v1/catalog/products',
      params: ['pageSize=1', 'q=a'],
    });
  });

  it('percent-encodes what may not stand in a URI, and keeps the escapes the client wrote', () => {
    expect(listUrl('/v1/catalog/products?q=a>b&sku=C"o<&barcode=%3E1', '/v1/catalog/products').params).toEqual([
      'q=a%3Eb',
      'sku=C%22o%3C',
      'barcode=%3E1',
    ]);
  });
});
