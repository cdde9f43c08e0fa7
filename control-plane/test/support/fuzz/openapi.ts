/** The parts of the served OpenAPI document (3.0, from the zod contracts) the fuzz suite reads. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  nullable?: boolean;
  default?: unknown;
}

interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One operation of the document, with its schemas resolved. */
export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** The path template, e.g. `/nodes/server/{uuid}/{serverId}`. */
  path: string;
  pathParams: string[];
  queryParams: Array<{ name: string; schema: JsonSchema }>;
  headerParams: string[];
  body: JsonSchema | null;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every operation (method + path) of the document. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const resolve = (schema: JsonSchema | undefined): JsonSchema | null => {
    if (!schema) return null;
    if (!schema.$ref) return schema;
    const name = schema.$ref.replace('#/components/schemas/', '');
    const found = document.components?.schemas?.[name];
    if (!found) throw new Error(`unresolved schema reference ${schema.$ref}`);
    return found;
  };
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = operation.parameters ?? [];
      operations.push({
        method,
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, schema: resolve(p.schema) ?? { type: 'string' } })),
        headerParams: parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()),
        body: resolve(operation.requestBody?.content?.['application/json']?.schema),
      });
    }
  }
  return operations;
}

const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

/** Values the fixtures know (the signed-in account, its server, a listed server...), by field name. */
export type KnownValues = Record<string, unknown>;

/** A valid value of a schema: a known value for its field name, else one built from the schema. */
export function validValue(schema: JsonSchema, field: string, known: KnownValues): unknown {
  if (field in known && fits(known[field], schema)) return known[field];
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(schema.properties ?? {})) {
        value[name] = validValue(property, name, known);
      }
      return value;
    }
    case 'array':
      return [validValue(schema.items ?? { type: 'string' }, field, known)];
    case 'boolean':
      return true;
    case 'number':
    case 'integer':
      return 1;
    default:
      if (schema.pattern === UUID_PATTERN) return '00000000-0000-4000-8000-000000000000';
      if (schema.pattern === '^\\d{6}$') return '123456';
      return 'fuzz';
  }
}

/** Whether a known value has the JSON type the schema asks for (names repeat across schemas). */
function fits(value: unknown, schema: JsonSchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? 'string'];
  if (value === null) return types.includes('null') || schema.nullable === true;
  const actual = Array.isArray(value) ? 'array' : typeof value;
  return types.some(
    (t) => t === actual || ((t === 'integer' || t === 'number') && actual === 'number'),
  );
}

/** Every field of a body schema, with its path from the root (`['location', 'coords', 'lat']`). */
export function fieldsOf(
  schema: JsonSchema,
  prefix: string[] = [],
): Array<{
  path: string[];
  schema: JsonSchema;
}> {
  const fields: Array<{ path: string[]; schema: JsonSchema }> = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const path = [...prefix, name];
    fields.push({ path, schema: property });
    if (property.properties) fields.push(...fieldsOf(property, path));
  }
  return fields;
}

/** A deep copy of `body` with the value at `path` replaced (or removed for `undefined`). */
export function withField(body: unknown, path: string[], value: unknown): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (!next || typeof next !== 'object') return copy;
    node = next as Record<string, unknown>;
  }
  const last = path[path.length - 1] as string;
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}
