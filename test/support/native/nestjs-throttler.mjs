// jest on Node 20 cannot load a CommonJS package that requires the ESM-only NestJS 12 packages: its
// module runtime has no require(esm), while Node's own loader has. @nestjs/throttler 6.7 is such a
// package, so under jest it is loaded by Node's own CommonJS loader, outside jest's module registry.
// jest.config.js maps the package here; the service itself imports it normally.
import Module from 'node:module';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../../../node_modules/@nestjs/throttler/dist/index.js', import.meta.url));
const throttler = Module._load(entry, null, false);

export const { ThrottlerStorageService } = throttler;
export default throttler;
