import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Checks HTTP responses against the committed OpenAPI document (openapi.json, which another test
 * keeps equal to what the code generates): the status must be documented for the operation, the
 * body must match its schema, and the documented headers must be present and well formed.
 */
type Json = Record<string, unknown>;
const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<
          string,
          { content?: Record<string, { schema: Json }>; headers?: Record<string, { schema: Json }> }
        >;
      }
    >
  >;
  components: { schemas: Record<string, Json> };
};

/** OpenAPI 3.0 `nullable` to JSON Schema, so that a nullable $ref accepts null. */
function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { nullable, example: _example, ...rest } = schema as Json;
  const out: Json = {};
  for (const [key, value] of Object.entries(rest)) {
    out[key] = key === '$ref' ? String(value).replace('#/components/schemas/', 'schemas.json#/') : toJsonSchema(value);
  }
  if (nullable === true) {
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

const addFormats = (addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule;
const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
ajv.addSchema({ $id: 'schemas.json', ...(toJsonSchema(document.components.schemas) as Json) });

const routes = Object.keys(document.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));
const validators = new Map<string, ValidateFunction>();

export interface CheckedResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/** Throws when the response is not what the document says; unknown paths are not documented operations. */
export function assertMatchesOpenApi(method: string, url: string, res: CheckedResponse): void {
  const path = new URL(url, 'http://x').pathname;
  const route = routes.find((r) => r.pattern.test(path));
  const operation = route ? document.paths[route.template][method.toLowerCase()] : undefined;
  if (!route || !operation) return;
  const response = operation.responses[String(res.status)];
  if (!response) throw new Error(`OpenAPI: ${method} ${route.template} does not document status ${res.status}`);
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const value = res.headers[name.toLowerCase()];
    if (value === undefined && (header as { required?: boolean }).required === false) continue;
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
  if (method.toUpperCase() === 'HEAD') return;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) throw new Error(`OpenAPI: ${method} ${route.template} ${res.status} documents no JSON body`);
  const key = `${method} ${route.template} ${res.status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(toJsonSchema(schema) as Json);
    validators.set(key, validate);
  }
  if (!validate(res.body)) {
    throw new Error(
      `OpenAPI: ${key} body does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body).slice(0, 500)}`,
    );
  }
}
