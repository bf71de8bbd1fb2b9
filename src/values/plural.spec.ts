import { count } from './plural.js';

describe('count', () => {
  it('writes the singular for one and the plural otherwise', () => {
    expect([count(1, 'tenant'), count(2, 'tenant'), count(0, 'tenant')]).toEqual([
      '1 tenant',
      '2 tenants',
      '0 tenants',
    ]);
    expect(count(1, 'staff member')).toBe('1 staff member');
    expect(count(3, 'category', 'categories')).toBe('3 categories');
  });
});
