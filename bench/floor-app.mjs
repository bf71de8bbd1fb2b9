// The framework's floor: a minimal NestJS 12 application on Express answering one constant JSON (the
// body of the service's /health/live), with nothing else: no middleware, guard, pipe or filter. What
// the service spends above this on /health/live is its own middleware.
import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

class FloorController {
  live() {
    return { status: 'ok', info: {}, error: {}, details: {} };
  }
}
Controller('health')(FloorController);
Get('live')(FloorController.prototype, 'live', Object.getOwnPropertyDescriptor(FloorController.prototype, 'live'));

class FloorModule {}
Module({ controllers: [FloorController] })(FloorModule);

const app = await NestFactory.create(FloorModule, { logger: false });
await app.listen(Number(process.env.PORT ?? 3002), '127.0.0.1');
