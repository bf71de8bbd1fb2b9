const rules = new Intl.PluralRules('en');

/** "1 tenant", "2 tenants", "0 tenants": a count with its noun for the command-line tools' messages. */
export function count(n: number, one: string, other = `${one}s`): string {
  return `${n} ${rules.select(n) === 'one' ? one : other}`;
}
