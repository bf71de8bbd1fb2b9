export const SCOPES = [
  'catalog.products.read',
  'catalog.categories.read',
  'catalog.promotions.read',
  'inventory.stock.read',
] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (value: unknown): value is Scope => SCOPES.includes(value as Scope);

/** What an operation requires: one scope, or `any` one of SCOPES (an operation that reveals nothing beyond what each already does). */
export type ScopeRequirement = Scope | 'any';

/** The scopes any one of which satisfies a requirement. */
export const scopesOf = (required: ScopeRequirement): readonly Scope[] => (required === 'any' ? SCOPES : [required]);
