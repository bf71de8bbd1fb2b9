/**
 * Swagger UI plugins of /docs. They run in the browser: @nestjs/swagger writes each function's source
 * into swagger-ui-init.js, so a function here uses nothing but its argument (no imports, no
 * closures). Swagger UI hands a plugin its `system`, whose React is the one it renders with.
 */

/* eslint-disable @typescript-eslint/no-explicit-any -- Swagger UI's system and props are untyped */

/**
 * The sample value of a parameter as its input's placeholder ("e.g. sto_camden"), instead of the
 * parameter's own name. The value is the parameter's `x-example` (optional parameters, which Swagger
 * UI must not fill in: see src/params/params.ts) or `example`; nothing is filled in.
 * ParameterRow knows the parameter and renders the input through JsonSchemaForm, which does not: a
 * React context carries the value from one to the other.
 */
export function sampleValuePlaceholders(system: any): object {
  const React = system.React;
  const Sample = React.createContext(undefined);
  return {
    wrapComponents: {
      parameterRow: (Original: any) =>
        function ParameterRowWithSample(props: any) {
          const sample = props.param?.get('x-example') ?? props.param?.get('example');
          return React.createElement(Sample.Provider, { value: sample }, React.createElement(Original, props));
        },
      JsonSchemaForm: (Original: any) =>
        function JsonSchemaFormWithSample(props: any) {
          const sample = React.useContext(Sample);
          return React.createElement(
            Original,
            sample === undefined ? props : { ...props, description: `e.g. ${String(sample)}` },
          );
        },
    },
  };
}

/**
 * The plugin @nestjs/swagger's page would load by itself (it lets the top bar fetch a document by
 * URL); giving `plugins` replaces that list, so it is named again.
 */
export function downloadUrl(system: any): object {
  return (globalThis as any).SwaggerUIBundle.plugins.DownloadUrl(system);
}

/**
 * Folds what every response repeats, so that an expanded operation shows its parameters and its 200
 * at a glance: each response's headers become one line naming them ("Headers: X-Request-Id, …"),
 * and an error response's example and schema one line too (the errors are the same on every
 * operation; the introduction describes them). A click unfolds either. Response knows its status and
 * renders the example through ModelExample, which does not: a React context carries the status.
 */
export function foldedResponseDetails(system: any): object {
  const React = system.React;
  const Status = React.createContext(undefined);
  const fold = (summary: string, content: unknown): unknown =>
    React.createElement('details', { className: 'folded' }, React.createElement('summary', null, summary), content);
  return {
    wrapComponents: {
      response: (Original: any) =>
        function ResponseWithStatus(props: any) {
          return React.createElement(
            Status.Provider,
            { value: String(props.code) },
            React.createElement(Original, props),
          );
        },
      headers: (Original: any) =>
        function FoldedHeaders(props: any) {
          const names: string[] = props.headers?.keySeq?.().toArray() ?? [];
          if (names.length === 0) return React.createElement(Original, props);
          return fold(`Headers: ${names.join(', ')}`, React.createElement(Original, props));
        },
      modelExample: (Original: any) =>
        function FoldedErrorExample(props: any) {
          const status = React.useContext(Status);
          if (status === undefined || status.startsWith('2')) return React.createElement(Original, props);
          return fold('Example value and schema', React.createElement(Original, props));
        },
    },
  };
}

/** Styles for the folded parts, and a headers table whose columns keep readable widths. */
export const DOCS_CSS = `
.swagger-ui details.folded { margin: 4px 0; }
.swagger-ui details.folded > summary { cursor: pointer; font-family: sans-serif; font-size: 13px; color: #3b4151; }
.swagger-ui details.folded .headers__title { display: none; }
.swagger-ui table.headers { table-layout: fixed; width: 100%; }
.swagger-ui table.headers .header-col { word-break: break-word; }
.swagger-ui table.headers .header-col:nth-child(1) { width: 18%; }
.swagger-ui table.headers .header-col:nth-child(2) { width: 52%; }
.swagger-ui tr.response:not([data-code^="2"]) .response-controls { display: none; }
`;

/**
 * On a development server, the Authorize dialog says where the demo keys are (swaggerOptions'
 * `demoKeysHint`, set by setupDocs in development only): a newcomer otherwise has no key to paste.
 */
export function demoKeysHint(system: any): object {
  const React = system.React;
  return {
    wrapComponents: {
      HttpAuth: (Original: any) =>
        function HttpAuthWithDemoKeysHint(props: any) {
          const hint = system.getConfigs().demoKeysHint;
          const form = React.createElement(Original, props);
          if (!hint) return form;
          return React.createElement(
            'div',
            null,
            React.createElement('p', { className: 'demo-keys-hint' }, hint),
            form,
          );
        },
    },
  };
}
