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
