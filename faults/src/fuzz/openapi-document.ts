/** The parts of an OpenAPI 3 document the fuzzer reads, with every `$ref` resolved. */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  example?: unknown;
  examples?: unknown[];
  default?: unknown;
  nullable?: boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema;
}

export interface SecurityScheme {
  name: string;
  type: string;
  scheme?: string;
  in?: 'header' | 'query' | 'cookie';
  /** Header, query or cookie name of an apiKey scheme. */
  parameter?: string;
}

export interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  /** Request body schemas by content type; empty when the operation takes no body. */
  bodies: Record<string, Schema>;
  bodyRequired: boolean;
  /** Alternatives: any one requirement (a set of schemes) is enough; empty means no credential. */
  security: string[][];
  /** Declared response content types by status ("200", "2XX", "default"). */
  responses: Record<string, string[]>;
  tags: string[];
}

export interface ApiModel {
  operations: Operation[];
  schemes: SecurityScheme[];
  /** Every string enum value and string example in the document: likely words for free-form fields. */
  vocabulary: string[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
/** Recursive schemas are cut here; generated values never need to be deeper. */
const MAX_REF_DEPTH = 8;

type Json = Record<string, unknown>;

function pointer(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported, got ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Json | undefined)?.[part], document);
}

/** Follows `$ref`s (recursively, cut at MAX_REF_DEPTH) and folds `allOf` into one object schema. */
export function resolveSchema(document: Json, schema: unknown, depth = 0): Schema {
  if (!schema || typeof schema !== 'object' || depth > MAX_REF_DEPTH) return {};
  let node = schema as Schema;
  while (node.$ref) node = (pointer(document, node.$ref) ?? {}) as Schema;
  const resolved: Schema = { ...node };
  const child = (value: unknown) => resolveSchema(document, value, depth + 1);
  if (resolved.items) resolved.items = child(resolved.items);
  if (resolved.properties) resolved.properties = Object.fromEntries(Object.entries(resolved.properties).map(([key, value]) => [key, child(value)]));
  if (resolved.additionalProperties && typeof resolved.additionalProperties === 'object') resolved.additionalProperties = child(resolved.additionalProperties);
  if (resolved.oneOf) resolved.oneOf = resolved.oneOf.map(child);
  if (resolved.anyOf) resolved.anyOf = resolved.anyOf.map(child);
  if (resolved.allOf) {
    const parts = resolved.allOf.map(child);
    delete resolved.allOf;
    for (const part of parts) {
      resolved.type ??= part.type;
      resolved.properties = { ...resolved.properties, ...part.properties };
      resolved.required = [...new Set([...(resolved.required ?? []), ...(part.required ?? [])])];
    }
  }
  return resolved;
}

function collectVocabulary(node: unknown, words: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectVocabulary(item, words);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'enum' && Array.isArray(value)) for (const item of value) if (typeof item === 'string') words.add(item);
    if (key === 'example' && typeof value === 'string' && value.length <= 200) words.add(value);
    collectVocabulary(value, words);
  }
}

function parameterOf(document: Json, raw: unknown): Parameter | undefined {
  const parameter = resolveSchema(document, raw) as unknown as { name?: string; in?: Parameter['in']; required?: boolean; schema?: unknown };
  if (!parameter.name || !parameter.in) return undefined;
  return { name: parameter.name, in: parameter.in, required: parameter.required === true || parameter.in === 'path', schema: resolveSchema(document, parameter.schema) };
}

/** Lists every operation (path × method) of an OpenAPI 3 document. */
export function readDocument(raw: object): ApiModel {
  const document = raw as Json;
  const components = (document.components ?? {}) as Json;
  const schemes = Object.entries((components.securitySchemes ?? {}) as Record<string, Json>).map(([name, scheme]) => ({
    name,
    type: String(scheme.type),
    scheme: typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : undefined,
    in: scheme.in as SecurityScheme['in'],
    parameter: typeof scheme.name === 'string' ? scheme.name : undefined,
  }));
  const globalSecurity = (document.security ?? []) as Record<string, string[]>[];
  const operations: Operation[] = [];
  for (const [path, rawItem] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    const item = resolveSchema(document, rawItem) as unknown as Json;
    const shared = ((item.parameters ?? []) as unknown[]).map((p) => parameterOf(document, p));
    for (const method of METHODS) {
      const op = item[method] as Json | undefined;
      if (!op) continue;
      const own = ((op.parameters ?? []) as unknown[]).map((p) => parameterOf(document, p));
      const parameters = new Map<string, Parameter>();
      for (const parameter of [...shared, ...own]) if (parameter) parameters.set(`${parameter.in}:${parameter.name}`, parameter);
      const requestBody = resolveSchema(document, op.requestBody) as unknown as { content?: Record<string, { schema?: unknown }>; required?: boolean };
      const bodies = Object.fromEntries(Object.entries(requestBody.content ?? {}).map(([type, media]) => [type, resolveSchema(document, media.schema)]));
      const responses = Object.fromEntries(
        Object.entries((op.responses ?? {}) as Record<string, unknown>).map(([status, response]) => {
          const content = (resolveSchema(document, response) as unknown as { content?: Json }).content ?? {};
          return [status, Object.keys(content)];
        }),
      );
      const security = ((op.security ?? globalSecurity) as Record<string, string[]>[]).map((requirement) => Object.keys(requirement));
      const tags = ((op.tags ?? []) as unknown[]).filter((tag): tag is string => typeof tag === 'string');
      operations.push({ method: method.toUpperCase(), path, parameters: [...parameters.values()], bodies, bodyRequired: requestBody.required === true, security, responses, tags });
    }
  }
  const vocabulary = new Set<string>();
  collectVocabulary(document, vocabulary);
  return { operations, schemes, vocabulary: [...vocabulary] };
}
