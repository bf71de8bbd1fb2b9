import '../../startup/exit-without-deadlock.js';
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../app.module.js';
import { loadConfig } from '../../config/app-config.js';
import { buildOpenApiDocument } from '../../openapi/openapi-document.js';

/**
 * Writes openapi.json (or the path given) from the code. Preview mode builds the module graph without
 * instantiating providers, so no database is needed.
 */
export async function generateOpenApi(): Promise<string> {
  const config = loadConfig({ DATABASE_URL: 'postgres://openapi@localhost/none', LOG_LEVEL: 'silent' });
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false });
  try {
    return `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

if (process.argv[1]?.endsWith('cli/openapi.js')) {
  const target = process.argv[2] ?? 'openapi.json';
  generateOpenApi().then(
    (text) => {
      writeFileSync(target, text);
      console.log(`Wrote ${target}`);
    },
    (error: unknown) => {
      console.error(`Could not generate the OpenAPI document: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
