import { ApiSchema } from '@nestjs/swagger';

const examples = new Map<string, object>();

/**
 * @ApiSchema with the schema's example, one whole object: a row the service answers for the demo data
 * set (fixtures/demo.json; test/openapi-examples.e2e-spec.ts compares them). Properties carry no
 * examples of their own: readers compose those into an object that no rule of the contract produces
 * (a cola can with every restriction flag true, a stock row in_stock at its reorder level).
 */
export function ApiSchemaWithExample(options: { name: string; description?: string; example: object }): ClassDecorator {
  examples.set(options.name, options.example);
  return ApiSchema({ name: options.name, description: options.description });
}

/** The examples declared so far, by schema name; buildOpenApiDocument writes them into the schemas. */
export const schemaExamples = (): ReadonlyMap<string, object> => examples;
