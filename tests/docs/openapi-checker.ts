import type { OpenApiDocument, OpenApiOperation, OpenApiResponse } from '@inkwell/adapters-http';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** Checks real responses against an OpenAPI document and remembers which documented answers it saw. */
export interface OpenApiChecker {
  /**
   * Checks one response to `method path` against the document and returns its parsed body
   * (undefined for an empty one). Throws when the status is undocumented, the body does not
   * validate against the documented schema, or an error message is not one of the documented examples.
   */
  check(method: string, path: string, res: Response): Promise<unknown>;
  /** Every documented `METHOD /path STATUS` that no checked response has shown, sorted. */
  unexercised(): string[];
  /** Every documented operation, as `METHOD /path`. */
  operations(): string[];
}

const COMPONENTS = '#/components/schemas/';

/**
 * The checker for `document`. Schemas are validated with ajv's draft 2020-12 validator, the
 * dialect OpenAPI 3.1 uses, in strict mode with formats, so an unknown keyword in the document
 * fails too. Component references become `$defs` of each compiled schema.
 */
export function openApiChecker(document: OpenApiDocument): OpenApiChecker {
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats.default(ajv);
  const toDefs = <T>(schema: T): T => JSON.parse(JSON.stringify(schema).replaceAll(`"${COMPONENTS}`, '"#/$defs/')) as T;
  const defs = toDefs(document.components.schemas);
  const validators = new Map<OpenApiResponse, ValidateFunction>();
  const seen = new Set<string>();

  const templates = Object.keys(document.paths).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));

  function operationFor(method: string, path: string): { template: string; operation: OpenApiOperation } {
    const pathname = new URL(path, 'http://localhost').pathname;
    const template = templates.find((candidate) => candidate.pattern.test(pathname))?.template;
    const operation = template && document.paths[template]?.[method.toLowerCase() as 'get'];
    if (!template || !operation) throw new Error(`${method} ${pathname} is not a documented operation`);
    return { template, operation };
  }

  function validatorFor(response: OpenApiResponse): ValidateFunction {
    let validate = validators.get(response);
    const schema = response.content?.['application/json'].schema;
    if (!validate && schema) {
      validate = ajv.compile({ ...toDefs(schema), $defs: defs });
      validators.set(response, validate);
    }
    if (!validate) throw new Error('no JSON schema to validate against');
    return validate;
  }

  return {
    async check(method, path, res) {
      const { template, operation } = operationFor(method, path);
      const name = `${method.toUpperCase()} ${template} ${res.status}`;
      const documented = operation.responses[String(res.status)];
      if (!documented) throw new Error(`${name}: status ${res.status} is not documented (body: ${await res.text()})`);

      // A documented header with one allowed value (Cache-Control: no-store), or a pattern
      // (WWW-Authenticate), must be there, and match.
      for (const [header, { schema }] of Object.entries(documented.headers ?? {})) {
        const value = res.headers.get(header);
        if (schema.const !== undefined && value !== schema.const) {
          throw new Error(`${name}: header ${header} is ${JSON.stringify(value)}, documented ${JSON.stringify(schema.const)}`);
        }
        if (typeof schema.pattern === 'string' && (value === null || !new RegExp(schema.pattern).test(value))) {
          throw new Error(`${name}: header ${header} is ${JSON.stringify(value)}, documented as matching ${schema.pattern}`);
        }
      }
      const text = await res.text();
      if (!documented.content) {
        if (text !== '') throw new Error(`${name}: documented without a body, answered ${JSON.stringify(text)}`);
        seen.add(name);
        return undefined;
      }
      if (!/^application\/json\s*(;|$)/.test(res.headers.get('content-type') ?? '')) {
        throw new Error(`${name}: content type ${res.headers.get('content-type')}, documented application/json`);
      }
      const body: unknown = JSON.parse(text);
      const validate = validatorFor(documented);
      if (!validate(body)) {
        throw new Error(`${name}: the body does not match the document: ${ajv.errorsText(validate.errors)}\n${text}`);
      }
      const examples = Object.values(documented.content['application/json'].examples ?? {});
      const message = (body as { error?: unknown }).error;
      if (message !== undefined && examples.length > 0) {
        const documentedMessages = examples.map((example) => (example.value as { error?: unknown }).error);
        if (!documentedMessages.includes(message)) {
          throw new Error(`${name}: error ${JSON.stringify(message)} is not among ${JSON.stringify(documentedMessages)}`);
        }
      }
      seen.add(name);
      return body;
    },

    unexercised() {
      return Object.entries(document.paths)
        .flatMap(([template, item]) =>
          Object.entries(item).flatMap(([method, operation]) =>
            Object.keys(operation.responses).map((status) => `${method.toUpperCase()} ${template} ${status}`),
          ),
        )
        .filter((name) => !seen.has(name))
        .sort();
    },

    operations() {
      return Object.entries(document.paths).flatMap(([template, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${template}`),
      );
    },
  };
}
