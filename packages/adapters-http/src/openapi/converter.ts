import { toJsonSchema, type ConversionConfig, type JsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

export type { JsonSchema };

/** Any valibot schema, as the converter takes it. */
export type AnySchema = v.GenericSchema;

/** An OpenAPI query parameter. */
export interface QueryParameter {
  readonly name: string;
  readonly in: 'query';
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
}

const COMPONENT_REF = '#/components/schemas/';

/**
 * Pipe actions that JSON Schema cannot express. Each becomes a note in the field's description;
 * a check is the domain's own rule (well-formed Unicode, a field another requires) and the
 * document states it once, in a description.
 * Any other unconvertible action still throws, so a new rule cannot vanish from the document
 * without someone deciding how to describe it.
 */
function describeUnconvertible(action: { type: string; message?: unknown }, schema: JsonSchema): JsonSchema | null {
  const note = (text: string) => ({ ...schema, description: schema.description ? `${schema.description} ${text}` : text });
  switch (action.type) {
    case 'trim':
      return note('Trimmed before it is validated.');
    case 'to_lower_case':
      return note('Lower-cased before it is validated and stored.');
    case 'max_bytes':
      return note(typeof action.message === 'string' ? `Also ${action.message}.` : 'Has a byte limit.');
    case 'check':
    case 'partial_check':
      // The domain's own rules across fields; the schema's description states them.
      return schema;
    default:
      return null;
  }
}

/**
 * Turns the domain's valibot schemas into the JSON Schemas (draft 2020-12, as OpenAPI 3.1 uses)
 * of the document. The named `components` are emitted once under `#/components/schemas/` and
 * every other schema refers to them, so a shape is described in exactly one place.
 */
export function createSchemaConverter(components: Readonly<Record<string, AnySchema>>) {
  const config: ConversionConfig = {
    target: 'draft-2020-12',
    errorMode: 'throw',
    definitions: components,
    overrideAction: ({ valibotAction, jsonSchema }) => describeUnconvertible(valibotAction, jsonSchema),
  };

  /** `schema` as a JSON Schema whose `$ref`s point into the document's components. */
  function toSchema(schema: AnySchema, overrides: ConversionConfig = {}): JsonSchema {
    const converted = toJsonSchema(schema, { ...config, ...overrides });
    // The document names its own dialect, and its components replace the converter's `$defs`.
    delete converted.$schema;
    delete converted.$defs;
    return pointRefsAtComponents(converted);
  }

  return {
    toSchema,

    /** Every component's JSON Schema, for `components.schemas`. */
    componentSchemas(): Record<string, JsonSchema> {
      return Object.fromEntries(
        Object.entries(components).map(([name, schema]) => {
          // Converted without itself as a definition, so the component is the shape, not a $ref to it.
          const others = Object.fromEntries(Object.entries(components).filter(([other]) => other !== name));
          return [name, toSchema(schema, { definitions: others })];
        }),
      );
    },

    /**
     * The query parameters of an object schema over query strings. The domain turns decimal
     * strings into numbers with a transform; a client sends them as integers, so that is how
     * they are documented (with the bounds the domain checks after the transform).
     */
    queryParameters(schema: { readonly entries: v.ObjectEntries }): QueryParameter[] {
      return Object.entries(schema.entries).map(([name, entry]) => {
        const converted = toSchema(entry, {
          overrideAction: ({ valibotAction, jsonSchema }) => {
            if (valibotAction.type !== 'transform') return describeUnconvertible(valibotAction, jsonSchema);
            const integer: JsonSchema = { ...jsonSchema, type: 'integer' };
            delete integer.pattern;
            return integer;
          },
        });
        const parameterSchema =
          converted.type === 'integer' && typeof converted.default === 'string'
            ? { ...converted, default: Number(converted.default) }
            : converted;
        return { name, in: 'query', required: entry.type !== 'optional', schema: parameterSchema };
      });
    },
  };
}

/** Rewrites the converter's `#/$defs/Name` references to `#/components/schemas/Name`. */
function pointRefsAtComponents<T>(value: T): T {
  if (Array.isArray(value)) return value.map(pointRefsAtComponents) as T;
  if (typeof value !== 'object' || value === null) return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    result[key] =
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
        ? COMPONENT_REF + inner.slice('#/$defs/'.length)
        : pointRefsAtComponents(inner);
  }
  return result as T;
}
