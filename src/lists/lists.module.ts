import { Global, Module } from '@nestjs/common';
import { CursorCodec } from './cursor.js';
import { ListEngine } from './list-engine.js';

@Global()
@Module({ providers: [CursorCodec, ListEngine], exports: [ListEngine] })
export class ListsModule {}
