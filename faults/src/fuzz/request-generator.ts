import fc from 'fast-check';
import { type AuthChoice, headerSafe, invalidAuth, validAuth } from './auth-variants';
import type { ApiModel, Operation, Parameter, Schema, SecurityScheme } from './openapi-document';
import type { SampleFile } from './sample-files';
import { boundaryValue, deepJson, nastyKey, nastyString, nastyValue, sendOptional, validValue } from './schema-values';

export interface FuzzRequest {
  method: string;
  /** Path and query exactly as sent, unnormalised. */
  url: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  /** The operation's path template; problems are grouped by it. */
  template: string;
  /** The operation whose declared responses apply; absent for a method the path does not declare. */
  operation?: Operation;
  /** What was varied, for the report. */
  label: string;
}

interface Body {
  contentType?: string;
  bytes: Buffer;
  label: string;
}

/** Which single aspect of a request is varied; everything else stays valid so the variation is what gets tested. */
type Focus = 'valid' | 'body' | 'auth' | 'path' | 'query' | 'header' | 'method';
const FOCUS_WEIGHTS: [Focus, number][] = [
  ['valid', 5],
  ['body', 5],
  ['auth', 2],
  ['path', 1],
  ['query', 1],
  ['header', 1],
  ['method', 1],
];
const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND', 'SEARCH'];

const WRONG_CONTENT_TYPES = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/octet-stream',
  'multipart/form-data',
  'text/csv',
  'application/json; charset=utf-16',
  'application/json, text/csv',
  'APPLICATION/JSON',
  'application/jsonx',
  'image/png',
];

const MALFORMED_JSON: (string | Buffer)[] = [
  '',
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":NaN}',
  '{"a":1} trailing',
  '\uFEFF{}',
  '{"a":1,"a":2}',
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '[]',
  '""',
  '0',
  'null',
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  deepJson(10_000),
  `{"a":${deepJson(10_000)}}`,
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  'x'.repeat(2 * 1024 * 1024),
];

const NASTY_PATH_SEGMENTS = ['..', '.', '../..', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%00', '%', '%zz', 'a'.repeat(10_000), 'a'.repeat(20_000), '', 'null', '-1', '0', '1e309', '%ff%fe', '%ED%A0%80', '%E2%80%AE', 'x;y', 'a?b'];

type Json = Record<string, unknown>;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Percent-encodes like encodeURIComponent, but sends a lone surrogate as invalid UTF-8 instead of throwing. */
function uriComponent(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return encodeURIComponent(text.replace(LONE_SURROGATE, '\uFFFD')).replace(/%EF%BF%BD/g, '%ED%A0%80');
}

function setOwn(target: Json | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Every position in a JSON value, as key paths from the root (the root itself first). */
function positions(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(prefix);
  if (out.length > 200 || prefix.length > 20) return out;
  if (Array.isArray(value)) value.forEach((item, i) => positions(item, [...prefix, i], out));
  else if (value && typeof value === 'object') for (const key of Object.keys(value)) positions((value as Json)[key], [...prefix, key], out);
  return out;
}

function at(value: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Json)?.[key as string], value);
}

const copy = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

type Mutation = 'replace' | 'remove' | 'add' | 'whole' | 'boundary';

/** Applies one mutation at the n-th position of a (copied) JSON value. */
function mutate(original: unknown, mutation: Mutation, n: number, replacement: unknown, key: string): { value: unknown; where: string } {
  const value = copy(original);
  if (mutation === 'whole' || value === null || typeof value !== 'object') return { value: replacement, where: 'the whole body' };
  const all = positions(value);
  const containers = all.filter((path) => typeof at(value, path) === 'object' && at(value, path) !== null);
  if (mutation === 'add') {
    const path = containers[n % containers.length];
    const target = at(value, path) as Json | unknown[];
    setOwn(target, Array.isArray(target) ? target.length : key, replacement);
    return { value, where: `new ${Array.isArray(target) ? 'item' : `field ${JSON.stringify(key.slice(0, 40))}`} in ${describe(path)}` };
  }
  const inner = all.filter((path) => path.length > 0);
  if (inner.length === 0) return { value: replacement, where: 'the whole body' };
  const path = inner[n % inner.length];
  const parent = at(value, path.slice(0, -1)) as Json | unknown[];
  const last = path[path.length - 1];
  if (mutation === 'remove') {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete (parent as Json)[last as string];
    return { value, where: `${describe(path)} removed` };
  }
  setOwn(parent, last, replacement);
  return { value, where: describe(path) };
}

const describe = (path: (string | number)[]) => (path.length ? path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${key.slice(0, 40)}`)).join('') : 'the root');

function preview(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 60 ? `${text.slice(0, 57)}… (${text.length} chars)` : text;
}

/** Schemas of the positions a boundary mutation can hit: the body's own properties, one level deep. */
function boundaryCandidates(schema: Schema, vocabulary: string[]): [string, fc.Arbitrary<unknown>][] {
  return Object.entries(schema.properties ?? {}).flatMap(([key, property]) => {
    const arbitrary = boundaryValue(property, vocabulary);
    return arbitrary ? [[key, arbitrary] as [string, fc.Arbitrary<unknown>]] : [];
  });
}

export interface GeneratorContext {
  model: ApiModel;
  secrets: Record<string, string[]>;
  files: { valid: SampleFile[]; invalid: SampleFile[] };
}

export class RequestGenerator {
  private readonly arbitraries = new Map<Operation, fc.Arbitrary<FuzzRequest>>();
  private readonly methodsByPath = new Map<string, Set<string>>();

  constructor(private readonly context: GeneratorContext) {
    for (const op of context.model.operations) {
      const methods = this.methodsByPath.get(op.path) ?? new Set<string>();
      methods.add(op.method);
      this.methodsByPath.set(op.path, methods);
    }
  }

  get operations(): Operation[] {
    return this.context.model.operations;
  }

  /** The `index`-th request of a run with `seed`: the same pair always gives the same request. */
  generate(seed: number, index: number): FuzzRequest {
    const operations = this.operations;
    const op = operations[index % operations.length];
    const arbitrary = this.arbitraries.get(op) ?? this.build(op);
    this.arbitraries.set(op, arbitrary);
    // One independent stream per request, so requests can be regenerated one by one.
    return fc.sample(arbitrary, { seed: (Math.imul(seed | 0, 0x9e3779b1) + index) | 0, numRuns: 1 })[0];
  }

  private schemesOf(op: Operation): SecurityScheme[] {
    const requirement = op.security[0] ?? [];
    return requirement.map((name) => this.context.model.schemes.find((scheme) => scheme.name === name)).filter((scheme): scheme is SecurityScheme => !!scheme);
  }

  private build(op: Operation): fc.Arbitrary<FuzzRequest> {
    const schemes = this.schemesOf(op);
    const { secrets } = this.context;
    const focus = fc.oneof(...FOCUS_WEIGHTS.filter(([f]) => this.applicable(op, f, schemes)).map(([f, weight]) => ({ arbitrary: fc.constant(f), weight })));
    return focus.chain((f) => {
      const auth = f === 'auth' ? invalidAuth(schemes, secrets, this.context.model.schemes) : validAuth(schemes, secrets);
      return fc
        .record({
          auth,
          path: this.pathArbitrary(op, f === 'path'),
          query: this.queryArbitrary(op, f === 'query'),
          headers: this.headerArbitrary(op, f === 'header'),
          body: this.bodyArbitrary(op, f === 'body'),
          method: f === 'method' ? fc.constantFrom(...OTHER_METHODS.filter((m) => !this.methodsByPath.get(op.path)?.has(m)), 'BREW') : fc.constant(op.method),
        })
        .map(({ auth, path, query, headers, body, method }) => this.assemble(op, f, auth, path, query, headers, body, method));
    });
  }

  private applicable(op: Operation, focus: Focus, schemes: SecurityScheme[]): boolean {
    switch (focus) {
      case 'body':
        return Object.keys(op.bodies).length > 0;
      case 'auth':
        return schemes.length > 0;
      case 'path':
        return op.parameters.some((p) => p.in === 'path');
      case 'header':
        return op.parameters.some((p) => p.in === 'header');
      default:
        return true;
    }
  }

  private assemble(op: Operation, focus: Focus, auth: AuthChoice, path: Fragment, query: Fragment, headers: HeaderFragment, body: Body | undefined, method: string): FuzzRequest {
    const allHeaders: Record<string, string | string[]> = { ...headers.headers };
    const queryParts = query.value ? [query.value] : [];
    for (const { scheme, value } of auth.credentials) {
      if (scheme.type === 'apiKey' && scheme.in === 'query') queryParts.push(`${encodeURIComponent(scheme.parameter ?? scheme.name)}=${uriComponent(value)}`);
      else if (scheme.type === 'apiKey' && scheme.in === 'cookie') allHeaders.cookie = `${scheme.parameter ?? scheme.name}=${uriComponent(value)}`;
      else allHeaders[(scheme.type === 'apiKey' ? (scheme.parameter ?? scheme.name) : 'authorization').toLowerCase()] = value;
    }
    if (body?.contentType !== undefined) allHeaders['content-type'] = body.contentType;
    const url = path.value + (queryParts.length ? `?${queryParts.join('&')}` : '');
    const sendsBody = body && method !== 'GET' && method !== 'HEAD';
    const labels = [focus === 'method' ? `method ${method}` : undefined, focus === 'auth' ? auth.label : undefined, path.label, query.label, headers.label, sendsBody ? body.label : undefined];
    return {
      method,
      url,
      headers: allHeaders,
      body: sendsBody ? body.bytes : undefined,
      template: op.path,
      operation: method === op.method ? op : undefined,
      label: labels.filter(Boolean).join('; ') || 'valid',
    };
  }

  private parameterValue(parameter: Parameter, nasty: boolean): fc.Arbitrary<{ value: unknown; label?: string }> {
    const { vocabulary } = this.context.model;
    const valid = validValue(parameter.schema, vocabulary).map((value) => ({ value }));
    if (!nasty) return valid;
    const bad = nastyValue.map((value) => ({ value, label: `${parameter.in} ${parameter.name} = ${preview(value)}` }));
    const boundary = boundaryValue(parameter.schema, vocabulary)?.map((value) => ({ value, label: `${parameter.in} ${parameter.name} at a boundary: ${preview(value)}` }));
    return boundary ? fc.oneof(bad, boundary) : bad;
  }

  /** A credential for a path parameter that carries one (e.g. /access-token/{token}). */
  private secretFor(parameter: Parameter): fc.Arbitrary<string> | undefined {
    const all = Object.values(this.context.secrets).flat();
    return /token|key/i.test(parameter.name) && all.length ? fc.constantFrom(...all) : undefined;
  }

  private pathArbitrary(op: Operation, nasty: boolean): fc.Arbitrary<Fragment> {
    const parameters = op.parameters.filter((p) => p.in === 'path');
    if (parameters.length === 0) return fc.constant({ value: op.path });
    const values = parameters.map((parameter) => {
      const valid = this.parameterValue(parameter, false).map(({ value }) => ({ raw: uriComponent(value), label: undefined as string | undefined }));
      const secret = this.secretFor(parameter)?.map((value) => ({ raw: uriComponent(value), label: undefined as string | undefined }));
      const plain = secret ? fc.oneof(valid, secret) : valid;
      if (!nasty) return plain;
      return fc.oneof(
        fc.constantFrom(...NASTY_PATH_SEGMENTS).map((raw) => ({ raw, label: `path ${parameter.name} = ${preview(raw)}` })),
        nastyString.map((value) => ({ raw: uriComponent(value), label: `path ${parameter.name} = ${preview(value)}` })),
        plain.map(({ raw }) => ({ raw: `${raw}/../${raw}`, label: `path ${parameter.name} with /../` })),
      );
    });
    return fc.tuple(...values).map((chosen) => {
      let value = op.path;
      parameters.forEach((parameter, i) => (value = value.replace(`{${parameter.name}}`, chosen[i].raw)));
      return { value, label: chosen.map((c) => c.label).filter(Boolean).join('; ') || undefined };
    });
  }

  private queryArbitrary(op: Operation, nasty: boolean): fc.Arbitrary<Fragment> {
    const parameters = op.parameters.filter((p) => p.in === 'query');
    const each = parameters.map((parameter) =>
      fc.record({ include: parameter.required ? fc.constant(true) : fc.boolean(), chosen: this.parameterValue(parameter, false) }).map(({ include, chosen }) => (include ? `${encodeURIComponent(parameter.name)}=${uriComponent(chosen.value)}` : undefined)),
    );
    const valid = fc.tuple(...each).map((parts) => parts.filter((p): p is string => p !== undefined));
    if (!nasty) return valid.map((parts) => ({ value: parts.join('&') }));
    const names = [...parameters.map((p) => p.name), 'unknown'];
    const twist = fc.record({ name: fc.constantFrom(...names), bad: this.parameterValue(parameters[0] ?? { name: 'unknown', in: 'query', required: false, schema: {} }, true), kind: fc.nat(6), long: nastyString });
    return fc.tuple(valid, twist).map(([parts, { name, bad, kind, long }]) => {
      const extra: [string, string][] = [
        [`${encodeURIComponent(name)}=${uriComponent(bad.value)}`, `query ${name} = ${preview(bad.value)}`],
        [`${encodeURIComponent(name)}=a&${encodeURIComponent(name)}=b`, `query ${name} twice`],
        [`${encodeURIComponent(name)}[]=a&${encodeURIComponent(name)}[__proto__][polluted]=1`, `query ${name} as array/object`],
        [`${encodeURIComponent(name)}`, `query ${name} without a value`],
        [`${encodeURIComponent(name)}=%zz%`, `query ${name} with broken percent escapes`],
        [`__proto__[polluted]=1&constructor[prototype][polluted]=1`, 'query prototype keys'],
        [`${encodeURIComponent(name)}=${uriComponent(long)}`, `query ${name} = ${preview(long)}`],
      ];
      const [part, label] = extra[kind % extra.length];
      return { value: [...parts, part].join('&'), label };
    });
  }

  private headerArbitrary(op: Operation, nasty: boolean): fc.Arbitrary<HeaderFragment> {
    const parameters = op.parameters.filter((p) => p.in === 'header');
    const each = parameters.map((parameter, i) =>
      fc.record({ include: parameter.required ? fc.constant(true) : sendOptional, chosen: this.parameterValue(parameter, nasty && i === 0) }).map(({ include, chosen }) => ({ parameter, include: include || !!chosen.label, ...chosen })),
    );
    return fc.tuple(...each).map((chosen) => {
      const headers: Record<string, string> = {};
      for (const { parameter, include, value } of chosen) if (include) headers[parameter.name.toLowerCase()] = headerSafe(typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
      return { headers, label: chosen.map((c) => c.label).filter(Boolean).join('; ') || undefined };
    });
  }

  private bodyArbitrary(op: Operation, nasty: boolean): fc.Arbitrary<Body | undefined> {
    const types = Object.keys(op.bodies);
    if (types.length === 0) return fc.constant(undefined);
    return fc.constantFrom(...types).chain((type) => {
      const schema = op.bodies[type];
      if (type.startsWith('multipart/form-data')) return this.multipartBody(schema, nasty);
      if (type === 'text/csv') return this.csvBody(nasty);
      if (type.includes('json')) return this.jsonBody(type, schema, nasty);
      return validValue(schema, this.context.model.vocabulary).map((value) => ({ contentType: type, bytes: Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)), label: `${type} body` }));
    });
  }

  private jsonBody(type: string, schema: Schema, nasty: boolean): fc.Arbitrary<Body> {
    const { vocabulary } = this.context.model;
    const valid = validValue(schema, vocabulary);
    const asJson = (value: unknown, label: string): Body => ({ contentType: type, bytes: Buffer.from(JSON.stringify(value) ?? ''), label });
    if (!nasty) return valid.map((value) => asJson(value, 'valid JSON body'));
    const mutated = fc
      .record({ value: valid, mutation: fc.constantFrom<Mutation>('replace', 'replace', 'remove', 'add', 'whole'), n: fc.nat(), replacement: nastyValue, key: fc.oneof(nastyKey, fc.string({ maxLength: 12 })) })
      .map(({ value, mutation, n, replacement, key }) => {
        const result = mutate(value, mutation, n, replacement, key);
        return asJson(result.value, `JSON body: ${mutation} ${result.where}${mutation === 'remove' ? '' : ` → ${preview(replacement)}`}`);
      });
    const candidates = boundaryCandidates(schema, vocabulary);
    const boundary = candidates.length
      ? fc.record({ value: valid, which: fc.nat(candidates.length - 1) }).chain(({ value, which }) =>
          candidates[which][1].map((bad) => {
            const body = { ...(copy(value) as Json) };
            setOwn(body, candidates[which][0], bad);
            return asJson(body, `JSON body: ${candidates[which][0]} at a boundary → ${preview(bad)}`);
          }),
        )
      : mutated;
    const malformed = fc.constantFrom(...MALFORMED_JSON).map((text) => ({ contentType: type, bytes: Buffer.from(text), label: `malformed JSON ${preview(text.toString())}` }));
    const wrongType = fc.tuple(valid, fc.constantFrom(...WRONG_CONTENT_TYPES)).map(([value, contentType]) => ({ ...asJson(value, ''), contentType, label: `JSON body sent as ${contentType ?? 'no Content-Type'}` }));
    return fc.oneof({ arbitrary: mutated, weight: 5 }, { arbitrary: boundary, weight: 2 }, { arbitrary: malformed, weight: 2 }, { arbitrary: wrongType, weight: 2 });
  }

  private csvBody(nasty: boolean): fc.Arbitrary<Body> {
    const found = this.context.model.vocabulary.filter((word) => /^[a-z]{2}$/.test(word));
    const languages = found.length ? found : ['de'];
    const cell = fc.lorem({ maxCount: 3, mode: 'words' });
    const valid = fc.record({ targets: fc.subarray(languages, { minLength: 1, maxLength: Math.min(3, languages.length) }), rows: fc.array(fc.array(cell, { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 5 }) }).map(({ targets, rows }) =>
      [['term', ...targets], ...rows.map((row) => row.slice(0, targets.length + 1))].map((row) => row.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\r\n'),
    );
    const csv = (text: string | Buffer, label: string, contentType = 'text/csv'): Body => ({ contentType, bytes: Buffer.from(text), label });
    if (!nasty) return valid.map((text) => csv(text, 'valid CSV body'));
    const broken = fc.tuple(valid, nastyString, fc.nat(10)).map(([text, nasty, kind]) => {
      const variants: [string | Buffer, string][] = [
        [`${text}\r\n"unclosed,quote`, 'CSV with an unclosed quote'],
        [`${text}\r\n=cmd|' /C calc'!A0,+1,-1`, 'CSV with formula cells'],
        [`\uFEFF${text}`, 'CSV with a BOM'],
        ['', 'empty CSV'],
        [text.split('\r\n')[0], 'CSV header only'],
        [text.replace('term', 'nope'), 'CSV without a term column'],
        [`${text}\r\n${'x,'.repeat(5000)}x`, 'CSV with a very wide row'],
        [`${text.split('\r\n')[0]}\r\n${Array.from({ length: 5001 }, (_, i) => `t${i},x`).join('\r\n')}`, 'CSV with 5,001 rows'],
        [Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0xfe, 0x00, 0x0a])]), 'CSV with invalid UTF-8'],
        [`${text}\r\n${nasty.replace(/[\r\n,"]/g, ' ')},${nasty.replace(/[\r\n,"]/g, ' ')}`, `CSV with cells ${preview(nasty)}`],
        [`term,zz,term\r\na,b,c`, 'CSV with an unknown language and a repeated column'],
      ];
      const [body, label] = variants[kind % variants.length];
      return csv(body, label);
    });
    const wrongType = fc.tuple(valid, fc.constantFrom('text/csv; charset=latin1', 'text/plain', 'application/json', undefined)).map(([text, type]) => csv(text, `CSV body sent as ${type ?? 'no Content-Type'}`, type));
    return fc.oneof({ arbitrary: broken, weight: 4 }, { arbitrary: wrongType, weight: 1 });
  }

  private multipartBody(schema: Schema, nasty: boolean): fc.Arbitrary<Body> {
    const { vocabulary } = this.context.model;
    const { valid: goodFiles, invalid: badFiles } = this.context.files;
    const properties = Object.entries(schema.properties ?? {});
    const isBinary = (s: Schema) => s.format === 'binary' || s.items?.format === 'binary';
    const fileFields = properties.filter(([, s]) => isBinary(s));
    const textFields = properties.filter(([, s]) => !isBinary(s));
    const required = new Set(schema.required ?? []);
    const secrets = Object.values(this.context.secrets).flat();
    const textValues = fc.tuple(
      ...textFields.map(([name, s]) => {
        const value = /token/i.test(name) && secrets.length ? fc.oneof(fc.constantFrom(...secrets), validValue(s, vocabulary)) : validValue(s, vocabulary);
        return fc.record({ include: required.has(name) ? fc.constant(true) : fc.boolean(), value });
      }),
    );
    const fileValues = fc.tuple(
      ...fileFields.map(([, s]) => {
        const max = Math.min(s.maxItems ?? 1, 3);
        return fc.array(fc.constantFrom(...goodFiles), { minLength: 1, maxLength: s.format === 'binary' ? 1 : max });
      }),
    );
    const parts = fc.record({ texts: textValues, files: fileValues }).map(({ texts, files }) => {
      const list: Part[] = [];
      textFields.forEach(([name], i) => texts[i].include && list.push({ name, value: typeof texts[i].value === 'string' ? (texts[i].value as string) : (JSON.stringify(texts[i].value) ?? '') }));
      fileFields.forEach(([name], i) => files[i].forEach((file) => list.push({ name, file })));
      return list;
    });
    const boundary = 'fuzzBoundary7MA4YWxkTrZu0gW';
    const form = (list: Part[], label: string, contentType = `multipart/form-data; boundary=${boundary}`, tail = `--${boundary}--\r\n`): Body => ({ contentType, bytes: multipart(list, boundary, tail), label });
    if (!nasty) return parts.map((list) => form(list, 'valid multipart body'));
    const names = properties.map(([name]) => name);
    const maxFiles = Math.max(1, ...fileFields.map(([, s]) => s.maxItems ?? 1));
    const twisted = fc.record({ list: parts, kind: fc.nat(11), n: fc.nat(), bad: fc.constantFrom(...badFiles), nasty: nastyString, key: nastyKey }).map(({ list, kind, n, bad, nasty, key }) => {
      const fileIndexes = list.map((part, i) => (part.file ? i : -1)).filter((i) => i >= 0);
      const textIndexes = list.map((part, i) => (part.file ? -1 : i)).filter((i) => i >= 0);
      const fileAt = fileIndexes.length ? fileIndexes[n % fileIndexes.length] : -1;
      const textAt = textIndexes.length ? textIndexes[n % textIndexes.length] : -1;
      const firstFileName = fileFields[0]?.[0] ?? 'file';
      switch (kind) {
        case 0:
        case 1:
        case 2:
          if (fileAt >= 0) list[fileAt] = { name: list[fileAt].name, file: bad };
          return form(list, `multipart file: ${bad.label}`);
        case 3:
          return form(
            list.filter((part) => !part.file),
            'multipart without its file',
          );
        case 4: {
          const many = Array.from({ length: maxFiles + 1 }, (): Part => ({ name: firstFileName, file: goodFiles[0] }));
          return form([...list.filter((part) => !part.file), ...many], `multipart with ${maxFiles + 1} files`);
        }
        case 5:
          if (textAt >= 0) list[textAt] = { name: list[textAt].name, value: nasty };
          else list.push({ name: names[n % Math.max(names.length, 1)] ?? 'x', value: nasty });
          return form(list, `multipart field = ${preview(nasty)}`);
        case 6:
          return form([...list, { name: key, value: 'x' }], `multipart unknown field ${preview(key)}`);
        case 7:
          return form(textAt >= 0 ? [...list, { ...list[textAt] }, { ...list[textAt], value: nasty }] : list, 'multipart field twice');
        case 8:
          if (textAt >= 0) list[textAt] = { name: list[textAt].name, file: goodFiles[n % goodFiles.length] };
          if (fileAt >= 0) list[fileAt] = { name: list[fileAt].name, value: 'not a file' };
          return form(list, 'multipart file and text fields swapped');
        case 9:
          return form(list, 'multipart without the closing boundary', undefined, '');
        case 10:
          return form(list, 'multipart under another boundary', 'multipart/form-data; boundary=somethingElse');
        default:
          return form(list, 'multipart without a boundary parameter', 'multipart/form-data');
      }
    });
    const wrongType = parts.chain((list) => fc.constantFrom('application/json', 'application/octet-stream', 'image/png', undefined).map((type) => form(list, `multipart body sent as ${type ?? 'no Content-Type'}`, type)));
    return fc.oneof({ arbitrary: twisted, weight: 6 }, { arbitrary: wrongType, weight: 1 });
  }
}

interface Fragment {
  value: string;
  label?: string;
}

interface HeaderFragment {
  headers: Record<string, string>;
  label?: string;
}

interface Part {
  name: string;
  value?: string;
  file?: SampleFile;
}

function multipart(parts: Part[], boundary: string, tail: string): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const name = part.name.replace(/["\r\n]/g, '_');
    if (part.file) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${part.file.filename.replace(/["\r\n]/g, '_')}"\r\nContent-Type: ${part.file.contentType}\r\n\r\n`));
      chunks.push(part.file.bytes, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${part.value ?? ''}\r\n`));
    }
  }
  chunks.push(Buffer.from(tail));
  return Buffer.concat(chunks);
}
