import { createRequire } from 'node:module';
import { isOutsideV1, isPlainTarget, isV1 } from './v1-target.js';

// Express routes by parseurl's pathname (its router and `req.path`): the rule is checked against it.
const parseurl = createRequire(import.meta.url)('parseurl') as (req: { url: string }) => { pathname: string | null };
const routedIsV1 = (target: string): boolean => isV1(parseurl({ url: target }).pathname ?? '');

/** Mulberry32: the same targets for the same seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('whether a target is for /v1 (V1_TARGET_SEED)', () => {
  it('agrees with the path Express routes by, for generated targets of every character Node lets through', () => {
    const seed = Number(process.env.V1_TARGET_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`V1_TARGET_SEED=${seed}`);
    const random = seeded(seed);
    // Pieces that make a target /v1 or not, and every character class that changes how it is parsed.
    const pieces = [
      '/',
      'v1',
      'v10',
      'V1',
      '\\',
      '#',
      '?',
      '%2F',
      '%76',
      '.',
      '..',
      'catalog',
      ';',
      '@',
      ':',
      '\t',
      '~',
    ];
    const problems: string[] = [];
    for (let i = 0; i < 20_000 && problems.length < 5; i++) {
      let target = random() < 0.8 ? '/' : '';
      for (let n = Math.floor(random() * 6); n >= 0; n--) target += pieces[Math.floor(random() * pieces.length)];
      const routed = routedIsV1(target);
      // A plainly written target is judged by its text: that must be what Express routes by.
      if (isPlainTarget(target) && isV1(target) !== routed)
        problems.push(`${JSON.stringify(target)}: raw ${isV1(target)}, routed ${routed}`);
      // The gate counts by address only what is plainly elsewhere: never a target routed to /v1.
      if (isOutsideV1(target) && routed) problems.push(`${JSON.stringify(target)}: outside by the gate, /v1 routed`);
    }
    expect({ seed, problems }).toEqual({ seed, problems: [] });
  });
});
