import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Checks HTTP responses against the committed OpenAPI document (openapi.json, which another test
 * keeps equal to what the code generates): the operation (method and path) must be documented, the
 * status must be documented for it, the body must match its schema, and the documented headers must
 * be present and well formed. `$ref`s (components.responses, headers, schemas) are followed.
 */
type Json = Record<string, unknown>;
interface Operation {
  responses: Record<string, Json>;
}
export const openApiDocument = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json> } & Json;
} & Json;

/** The object a local `$ref` (`#/components/…`) points at, followed to the end; anything else as it is. */
export function resolveRef<T = Json>(node: unknown): T {
  let current = node as Json;
  for (let hops = 0; current !== null && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref as string;
    if (!ref.startsWith('#/') || hops > 10) throw new Error(`OpenAPI: cannot follow $ref ${ref}`);
    current = ref
      .slice(2)
      .split('/')
      .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<Json>((o, key) => o?.[key] as Json, openApiDocument);
    if (current === undefined) throw new Error(`OpenAPI: $ref ${ref} points at nothing`);
  }
  return current as T;
}

/**
 * An OpenAPI 3.0 schema as JSON Schema, read as strictly as the 3.0.3 specification words it:
 * `nullable: true` adds null to the `type` written beside it and does nothing without one (so a
 * `{ nullable: true, allOf: [{ $ref }] }` would still refuse null, as strict validators and
 * generators read it), and an `enum` admits null only when it lists null.
 */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { nullable, example: _example, discriminator: _discriminator, ...rest } = schema as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key.startsWith('x-')) continue;
    out[key] =
      key === '$ref'
        ? String(value).replace('#/components/schemas/', 'schemas.json#/')
        : key === 'properties'
          ? Object.fromEntries(Object.entries(value as Json).map(([name, s]) => [name, toJsonSchema(s)]))
          : toJsonSchema(value);
  }
  if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema({ $id: 'schemas.json', ...(toJsonSchema(openApiDocument.components.schemas) as Json) });

const compiled = new Map<string, ValidateFunction>();
/** A validator of an OpenAPI schema (or `$ref` to one), read strictly (see toJsonSchema). */
export function compileSchema(schema: unknown): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(toJsonSchema(schema) as Json);
    compiled.set(key, validate);
  }
  return validate;
}
export const schemaErrors = (validate: ValidateFunction): string => ajv.errorsText(validate.errors);

const routes = Object.keys(openApiDocument.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

export interface CheckedResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Throws when the response is not what the document says; unknown paths are not documented operations. */
export function assertMatchesOpenApi(method: string, url: string, res: CheckedResponse): void {
  const path = new URL(url, 'http://x').pathname;
  const route = routes.find((r) => r.pattern.test(path));
  if (!route) return;
  const operation = openApiDocument.paths[route.template][method.toLowerCase()];
  if (!operation) throw new Error(`OpenAPI: ${method} ${route.template} is not a documented operation`);
  if (!operation.responses[String(res.status)])
    throw new Error(`OpenAPI: ${method} ${route.template} does not document status ${res.status}`);
  const response = resolveRef<{ content?: Record<string, { schema: Json }>; headers?: Record<string, Json> }>(
    operation.responses[String(res.status)],
  );
  for (const [name, ref] of Object.entries(response.headers ?? {})) {
    const header = resolveRef<{ required?: boolean; schema: Json }>(ref);
    const value = res.headers[name.toLowerCase()];
    if (value === undefined && header.required === false) continue;
    if (value === undefined)
      throw new Error(`OpenAPI: ${method} ${route.template} ${res.status} lacks the documented header ${name}`);
    const schema = header.schema as { pattern?: string; enum?: string[]; type?: string };
    if (schema.pattern && !new RegExp(schema.pattern).test(value))
      throw new Error(`OpenAPI: header ${name}="${value}" does not match ${schema.pattern}`);
    if (schema.enum && !schema.enum.includes(value))
      throw new Error(`OpenAPI: header ${name}="${value}" is not one of ${schema.enum.join(', ')}`);
    if (schema.type === 'integer' && !/^-?[0-9]+$/.test(value))
      throw new Error(`OpenAPI: header ${name}="${value}" is not an integer`);
  }
  const key = `${method} ${route.template} ${res.status}`;
  const schema = response.content?.['application/json']?.schema;
  if (method.toUpperCase() === 'HEAD') {
    if (schema) throw new Error(`OpenAPI: ${key} documents a body, which HEAD never has`);
    return;
  }
  if (!schema) throw new Error(`OpenAPI: ${key} documents no JSON body`);
  const validate = compileSchema(schema);
  if (!validate(res.body)) {
    throw new Error(
      `OpenAPI: ${key} body does not match the document: ${schemaErrors(validate)}\n${JSON.stringify(res.body).slice(0, 500)}`,
    );
  }
}
