import { Global, Module } from '@nestjs/common';
import { CursorCodec } from './cursor.js';
import { Walks } from './walk.js';

@Global()
@Module({ providers: [CursorCodec, Walks], exports: [Walks] })
export class PaginationModule {}
