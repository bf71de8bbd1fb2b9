/**
 * Node.js before 24 (V8 before 13.6), on which two of V8's choices cost this service most of its
 * per-request overhead: the change of prototype Express makes on every request and allocation-site
 * pretenuring (measured on Node 20, 22, 24 and 26: docs/performance.md#what-v8-did-on-node-20-and-22).
 * From Node 24 on, V8 makes neither mistake, and working around them costs a little instead.
 */
export const NODE_BEFORE_24 = Number(process.versions.node.split('.')[0]) < 24;
