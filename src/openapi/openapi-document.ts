import type { INestApplication } from '@nestjs/common';
import {
  type ComponentsObject,
  DocumentBuilder,
  type OpenAPIObject,
  type ParameterObject,
  type PathItemObject,
  type ResponseObject,
  SwaggerModule,
} from '@nestjs/swagger';
import type { AppEnv } from '../config/app-config.js';
import { DESCRIPTION, DOCUMENT_PATH } from './description.js';
import { ERROR_SCHEMAS } from './error-envelope.js';
import {
  errorResponseComponents,
  errorResponseRefs,
  REQUEST_ID_PARAMETER,
  REQUEST_ID_PARAMETER_REF,
  RESPONSE_HEADERS,
} from './responses.js';
import { schemaExamples } from './schema-examples.js';
import {
  demoKeysHint,
  DOCS_CSS,
  downloadUrl,
  foldedResponseDetails,
  sampleValuePlaceholders,
} from './swagger-ui-plugins.js';
import { BEARER_SCHEME, REQUIRED_SCOPES_EXTENSION } from './v1-operation.decorator.js';

/** The base addresses of the deployments (the Ingress hosts of deploy/overlays/<environment>/kustomization.yaml). */
const SERVERS = [
  { url: '/', description: 'This server' },
  { url: 'https://catalog-api.dev.pos-platform.example', description: 'development (ck_test_ keys)' },
  { url: 'https://catalog-api.pos-platform.example', description: 'production (ck_live_ keys)' },
];

/** Who answers integration developers' questions about the API. */
const CONTACT = { name: 'Catalog and Inventory API team', email: 'catalog-api@pos-platform.example' };

/** The tag of the HEAD operations, listed after the GET operations' tags. */
const HEAD_TAG = 'HEAD';

/** The OpenAPI 3 document of the service, generated from the controllers, DTOs and views. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Catalog and Inventory Read API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0.0')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque API key (not a JWT)',
        description:
          'An integration API key: ck_live_… (production) or ck_test_… (development), then 32 to 64 letters and digits.',
      },
      BEARER_SCHEME,
    )
    .addTag('Catalog', 'Products, categories and customer-facing promotions.')
    .addTag('Inventory', 'Exact stock levels.')
    .addTag(HEAD_TAG, 'Every GET operation answers HEAD too: the same status and headers, without a body.');
  for (const server of SERVERS) builder.addServer(server.url, server.description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (_controller, method) => method,
  });
  document.info.contact = CONTACT;
  document.info.license = { name: 'Proprietary: for approved integrations of the point-of-sale platform' };
  document.components = {
    ...document.components,
    schemas: { ...strictSchemas(document.components?.schemas ?? {}, document.paths), ...ERROR_SCHEMAS },
    responses: errorResponseComponents(),
    headers: RESPONSE_HEADERS,
    parameters: { [REQUEST_ID_PARAMETER.name]: REQUEST_ID_PARAMETER },
  };
  for (const [name, example] of schemaExamples()) {
    const schema = document.components.schemas![name];
    if (schema !== undefined && !('$ref' in schema)) schema.example = example;
  }
  completeV1Operations(document);
  shareParameters(document);
  return sortKeys(document);
}

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; allOf?: { $ref?: string }[] };
type Operation = NonNullable<PathItemObject['get']>;
type Schemas = NonNullable<ComponentsObject['schemas']>;

/**
 * Two rules of the contract that @nestjs/swagger does not write: objects have no other keys than
 * those listed (`additionalProperties: false`), and a nullable object accepts null when read strictly.
 * OpenAPI 3.0 lets `nullable` widen only the `type` beside it, so the generated `{ nullable, allOf:
 * [$ref] }` would, read strictly, still refuse the null the service sends. A schema referred to only
 * as nullable (VatRate) becomes nullable itself and keeps its name; one also referred to as not
 * nullable is written inline with `nullable: true`.
 */
function strictSchemas(generated: Schemas, paths: OpenAPIObject['paths']): Schemas {
  const schemas = generated as Record<string, Schema>;
  const nullableRefs: { schema: Schema; property: string; target: string }[] = [];
  for (const schema of Object.values(schemas)) {
    if (schema.type === 'object' && schema.properties) schema.additionalProperties = false;
    for (const [property, value] of Object.entries(schema.properties ?? {})) {
      // `{ allOf: [$ref] }` and nothing beside it is the $ref itself.
      if (Object.keys(value).length === 1 && value.allOf?.length === 1) schema.properties![property] = value.allOf[0];
      const ref = value.nullable === true && value.allOf?.length === 1 ? value.allOf[0].$ref : undefined;
      if (ref !== undefined) nullableRefs.push({ schema, property, target: ref.replace('#/components/schemas/', '') });
    }
  }
  const text = JSON.stringify(paths) + JSON.stringify(schemas);
  const referencesTo = (name: string): number => text.split(`"#/components/schemas/${name}"`).length - 1;
  const inlined = new Set<string>();
  for (const { schema, property, target } of nullableRefs) {
    const { allOf: _allOf, nullable: _nullable, ...rest } = schema.properties![property];
    if (nullableRefs.filter((r) => r.target === target).length === referencesTo(target)) {
      schemas[target].nullable = true;
      schema.properties![property] = { $ref: `#/components/schemas/${target}` };
    } else {
      schema.properties![property] = { ...schemas[target], ...rest, type: 'object', nullable: true };
      inlined.add(target);
    }
  }
  // A schema now written only inline is not kept as a component of its own (the paths refer to pages and rows).
  const after = JSON.stringify(paths) + JSON.stringify(schemas);
  for (const name of inlined) if (!after.includes(`"#/components/schemas/${name}"`)) delete schemas[name];
  return generated;
}

/**
 * What every /v1 operation (marked by x-required-scopes) shares: the error responses and the
 * X-Request-Id parameter, by reference, and a HEAD operation: Express answers HEAD on every GET route
 * with GET's status and headers and no body. The parameters are written on each operation, GET and
 * HEAD alike, never on the path item: some generators (orval) read only an operation's own
 * parameters and would drop every filter without a word.
 */
function completeV1Operations(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    const { parameters = [], ...get } = item.get as Operation & { [REQUIRED_SCOPES_EXTENSION]?: unknown };
    if (get[REQUIRED_SCOPES_EXTENSION] === undefined) continue;
    const ok = get.responses['200'] as ResponseObject;
    const head = {
      tags: [HEAD_TAG],
      summary: `${get.summary}: headers only`,
      description: `The status and headers of GET ${path}, without a body.`,
      operationId: `${get.operationId}Head`,
      [REQUIRED_SCOPES_EXTENSION]: get[REQUIRED_SCOPES_EXTENSION],
      security: get.security,
      responses: { '200': { description: `${ok.description} No body (HEAD).`, headers: ok.headers } },
    };
    const all = [...parameters, REQUEST_ID_PARAMETER_REF];
    document.paths[path] = {
      get: { ...get, parameters: all, responses: { '200': ok, ...errorResponseRefs('get') } },
      head: { ...head, parameters: all, responses: { ...head.responses, ...errorResponseRefs('head') } },
    };
  }
}

/**
 * A parameter written the same way by several operations (page, pageSize, cursor, storeId, and every
 * parameter of a GET and its HEAD) becomes a component of its name, when no operation writes that
 * name another way.
 */
function shareParameters(document: OpenAPIObject): void {
  const operations = Object.values(document.paths).flatMap((item) =>
    [item.get, item.head].filter((op) => op !== undefined),
  );
  const written = new Map<string, Set<string>>();
  for (const op of operations)
    for (const p of op.parameters ?? [])
      if (!('$ref' in p)) written.set(p.name, (written.get(p.name) ?? new Set()).add(JSON.stringify(p)));
  const uses = (name: string): number =>
    operations.filter((op) => op.parameters?.some((p) => !('$ref' in p) && p.name === name)).length;
  const parameters = document.components!.parameters!;
  for (const [name, forms] of written) {
    if (forms.size !== 1 || uses(name) < 2 || parameters[name] !== undefined) continue;
    parameters[name] = JSON.parse([...forms][0]) as ParameterObject;
    for (const op of operations)
      op.parameters = op.parameters?.map((p) =>
        !('$ref' in p) && p.name === name ? { $ref: `#/components/parameters/${name}` } : p,
      );
  }
}

/** Stable output: paths and components in a fixed order, so that the committed file diffs cleanly. */
function sortKeys(document: OpenAPIObject): OpenAPIObject {
  const sorted = <T extends Record<string, unknown>>(o: T | undefined): T | undefined =>
    o === undefined
      ? undefined
      : (Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as T);
  const components = document.components!;
  return {
    ...document,
    paths: sorted(document.paths)!,
    components: {
      ...components,
      schemas: sorted(components.schemas),
      responses: sorted(components.responses),
      headers: sorted(components.headers),
      parameters: sorted(components.parameters),
    },
  };
}

/** What the Authorize dialog of a development server says (the demo data set's keys are public). */
export const DEMO_KEYS_HINT =
  'Development server: with the demo data set loaded, its ck_test_ keys work here. `npm start` prints them, and ' +
  'fixtures/demo.json lists them (apiClients[].keys[].key), for example ck_test_DemoErpSyncKey0000000000000000000001 ' +
  '(Corner Shop ERP sync, every scope, all stores).';

/**
 * Swagger UI at /docs and the document at /docs/openapi.json, served from local files (no CDN). A key
 * authorized in Swagger UI is kept in the browser's local storage (and survives a reload) on a
 * development server only: there it is a ck_test_ key on a developer's machine; a production key
 * must not stay behind in a browser.
 */
export function setupDocs(app: INestApplication, document: OpenAPIObject, appEnv: AppEnv): void {
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: DOCUMENT_PATH.slice(1),
    raw: ['json'],
    customSiteTitle: 'Catalog and Inventory Read API',
    customCss: DOCS_CSS,
    swaggerOptions: {
      validatorUrl: null,
      persistAuthorization: appEnv === 'development',
      displayRequestDuration: true,
      tryItOutEnabled: true,
      plugins: [downloadUrl, sampleValuePlaceholders, foldedResponseDetails, demoKeysHint],
      ...(appEnv === 'development' ? { demoKeysHint: DEMO_KEYS_HINT } : {}),
    },
  });
}
