export const SCOPES = [
  'catalog.products.read',
  'catalog.categories.read',
  'catalog.promotions.read',
  'inventory.stock.read',
] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (value: unknown): value is Scope => SCOPES.includes(value as Scope);
