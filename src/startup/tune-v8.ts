import v8 from 'node:v8';
import { NODE_BEFORE_24 } from './node-version.js';

// Imported first by main.ts, for its effect: before any other module's code runs, so that no
// allocation site has been judged yet.
//
// On Node before 24, V8's allocation-site pretenuring is turned off. Under a load of list pages V8
// came to allocate some of a page's objects directly in the old generation, so that what they
// referenced (the page's rows) was promoted too: 2.5 MB per young-generation collection, 0.3 MB
// without it, and a page of 100 products cost 930–1,043 µs of node CPU against 733–760 without
// (Node 20; Node 22 1,206–1,236 against 1,036–1,083; on Node 24 and 26 no better, or 90 µs worse).
if (NODE_BEFORE_24) v8.setFlagsFromString('--no-allocation-site-pretenuring');
