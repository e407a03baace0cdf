import fc from 'fast-check';
import type { Schema } from './openapi-document';

/** Arrays and strings of valid values stay small: requests should reach deep code, not the size caps. */
const MAX_VALID_ITEMS = 4;
const MAX_VALID_CHARS = 60;
const MAX_DEPTH = 5;

function typeOf(schema: Schema): string | undefined {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.properties || schema.additionalProperties) return 'object';
  if (schema.items) return 'array';
  return undefined;
}

function bounds(schema: Schema): { min: number; max: number } {
  const low = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : schema.minimum;
  const high = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - 1 : schema.maximum;
  const min = low ?? (high !== undefined ? Math.min(0, high) : 0);
  return { min, max: high ?? Math.max(min, 0) + 100_000 };
}

/**
 * Values that conform to `schema`, biased towards the document's own enums and examples and
 * towards words (so translation texts are translated rather than refused as empty).
 */
export function validValue(schema: Schema, vocabulary: string[], depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((alternative) => validValue(alternative, vocabulary, depth + 1)));
  const plain = plainValue(schema, vocabulary, depth);
  const examples = [schema.example, ...(schema.examples ?? []), schema.default].filter((value) => value !== undefined);
  const withExamples = examples.length ? fc.oneof({ arbitrary: fc.constantFrom(...examples), weight: 2 }, { arbitrary: plain, weight: 1 }) : plain;
  return schema.nullable ? fc.option(withExamples, { nil: null, freq: 10 }) : withExamples;
}

function plainValue(schema: Schema, vocabulary: string[], depth: number): fc.Arbitrary<unknown> {
  switch (typeOf(schema)) {
    case 'string':
      return stringValue(schema, vocabulary);
    case 'integer': {
      const { min, max } = bounds(schema);
      return fc.integer({ min: Math.ceil(min), max: Math.floor(Math.min(max, Number.MAX_SAFE_INTEGER)) });
    }
    case 'number': {
      const { min, max } = bounds(schema);
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? MAX_VALID_ITEMS, MAX_VALID_ITEMS));
      if (depth >= MAX_DEPTH) return fc.constant([]);
      return fc.array(validValue(schema.items ?? {}, vocabulary, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectValue(schema, vocabulary, depth);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringValue(schema: Schema, vocabulary: string[]): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? MAX_VALID_CHARS, MAX_VALID_CHARS));
  const fits = (value: string) => value.length >= minLength && value.length <= (schema.maxLength ?? Infinity);
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
    case 'date':
      return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10));
    case 'uri':
    case 'url':
      return fc.webUrl({ withQueryParameters: true });
    case 'email':
      return fc.emailAddress();
  }
  if (schema.pattern) {
    try {
      return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
    } catch {
      // A pattern fast-check cannot invert: fall back to free text.
    }
  }
  const words = fc.lorem({ maxCount: 8, mode: 'words' }).filter(fits);
  const free = [words, fc.string({ minLength, maxLength }), fc.string({ minLength, maxLength, unit: 'grapheme' })];
  const known = vocabulary.filter(fits);
  return known.length ? fc.oneof(fc.constantFrom(...known), ...free) : fc.oneof(...free);
}

/** Optional properties appear in one value out of four: each one present can make a request fail early (an unknown id). */
const OPTIONAL_WEIGHT = { absent: 3, present: 1 };

/** Whether an optional property or header is sent, weighted as above. */
export const sendOptional = fc.oneof({ arbitrary: fc.constant(false), weight: OPTIONAL_WEIGHT.absent }, { arbitrary: fc.constant(true), weight: OPTIONAL_WEIGHT.present });

function objectValue(schema: Schema, vocabulary: string[], depth: number): fc.Arbitrary<unknown> {
  if (depth >= MAX_DEPTH) return fc.constant({});
  const properties = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const values = properties.map(([key, property]) => {
    const value = validValue(property, vocabulary, depth + 1);
    return required.has(key) ? value : fc.oneof({ arbitrary: fc.constant(undefined), weight: OPTIONAL_WEIGHT.absent }, { arbitrary: value, weight: OPTIONAL_WEIGHT.present });
  });
  const record = fc.tuple(...values).map((chosen) => Object.fromEntries(properties.flatMap(([key], i) => (chosen[i] === undefined ? [] : [[key, chosen[i]]]))));
  if (!schema.additionalProperties) return record;
  const valueSchema = schema.additionalProperties === true ? {} : schema.additionalProperties;
  const keys = vocabulary.length ? fc.oneof(fc.constantFrom(...vocabulary), fc.string({ maxLength: 8 })) : fc.string({ maxLength: 8 });
  const extra = fc.dictionary(keys, validValue(valueSchema, vocabulary, depth + 1), { maxKeys: 3, noNullPrototype: true });
  return fc.tuple(record, extra).map(([fixed, more]) => ({ ...more, ...fixed }));
}

/** JSON text nested `depth` levels deep, built as text: JSON.stringify would hit the call stack first. */
export const deepJson = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

/**
 * Strings that have broken parsers, validators, loggers and databases before: empty and huge,
 * lone surrogates, format (Cf) and bidi controls, NUL, path traversal, percent escapes, markup,
 * placeholders, numbers in disguise.
 */
export const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\t\r\n',
    'a'.repeat(100_000),
    'word '.repeat(20_000),
    '\uD800',
    'a\uDC00b',
    '\uDBFF\uDFFF\uD800',
    '\u200B\u200C\u200D\u2060\uFEFF\u00AD',
    'The\u2060cat\u2060is\u2060sleeping',
    '\u202Egnp.exe\u202C',
    'שלום עולם مرحبا',
    'abc\u0000def',
    '\u0000',
    '../../../../etc/passwd',
    '..%2f..%2fetc%2fpasswd',
    '%00',
    '%zz',
    '%',
    '${7*7}{{7*7}}%s%1$s{name}',
    '<script>alert(1)</script>',
    '<x id="0"/><g id="2">The cat</g>',
    "' OR '1'='1'; --",
    '"\\',
    'null',
    'undefined',
    'NaN',
    'Infinity',
    '-1',
    '1e309',
    '0x7fffffff',
    '99999999999999999999999999',
    '__proto__',
    'constructor',
    'e\u0301'.repeat(2_000),
    '🏳️‍🌈'.repeat(500),
    '=cmd|"/c calc"!A1',
    `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

const nastyNumber = fc.constantFrom(0, -0, -1, 0.5, -1.5, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 1e21);

/** Keys that have polluted prototypes or confused validators. */
export const nastyKey = fc.constantFrom('__proto__', 'constructor', 'prototype', '', ' ', 'a'.repeat(10_000), '\u0000', '\uD800', 'toString', 'hasOwnProperty', '$where', 'a.b', 'a[0]');

/** Any JSON value of the wrong kind: other types, boundaries, prototype keys, deep nesting. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: nastyString, weight: 4 },
  { arbitrary: nastyNumber, weight: 2 },
  fc.constantFrom(null, true, false, [], {}, [null], [[]], { '': '' }),
  nastyKey.map((key) => JSON.parse(`{${JSON.stringify(key)}:{"polluted":true}}`)),
  fc.constantFrom(200, 2_000).map((depth) => JSON.parse(deepJson(depth))),
  fc.array(nastyString, { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Just outside the schema's limits: one item, character or unit too many or too few. */
export function boundaryValue(schema: Schema, vocabulary: string[]): fc.Arbitrary<unknown> | undefined {
  const candidates: unknown[] = [];
  const type = typeOf(schema);
  if (type === 'string') {
    if (schema.maxLength !== undefined) candidates.push('x'.repeat(schema.maxLength + 1));
    if (schema.minLength) candidates.push('x'.repeat(schema.minLength - 1));
    if (schema.enum?.length) candidates.push(String(schema.enum[0]).toUpperCase(), `${String(schema.enum[0])} `);
  }
  if (type === 'integer' || type === 'number') {
    if (schema.maximum !== undefined) candidates.push(schema.maximum + 1, schema.maximum + 0.5);
    if (schema.minimum !== undefined) candidates.push(schema.minimum - 1);
    if (type === 'integer') candidates.push(1.5, '12', 2 ** 63);
  }
  if (type === 'array') {
    const item = fc.sample(validValue(schema.items ?? {}, vocabulary), { numRuns: 1, seed: 1 })[0];
    if (schema.maxItems !== undefined) candidates.push(Array.from({ length: schema.maxItems + 1 }, () => item));
    if (schema.minItems) candidates.push([]);
  }
  return candidates.length ? fc.constantFrom(...candidates) : undefined;
}
