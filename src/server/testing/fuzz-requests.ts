import fc from 'fast-check';
import { multipartBody, SAMPLE_FILES, type MultipartFile } from './multipart.ts';

/**
 * Generators of malformed requests for the fuzz suite (src/server/security/fuzz.test.ts).
 * Each route's request starts from its valid example (route-examples.ts), so a mutation
 * reaches the code behind validation; the rest is noise from scratch: wrong types, huge
 * strings, unicode, nulls, prototype keys, deep nesting, broken JSON, wrong content types,
 * duplicate query keys, numbers as strings, empty bodies.
 */

/** The valid request a route's fuzzing starts from. */
export type SeedRequest = {
  /** The route's own parameter values, by name. */
  params: Record<string, string>;
  query: [string, string][];
  /** A JSON value, a multipart body, or nothing. */
  body: { kind: 'json'; value: unknown } | { kind: 'multipart' } | { kind: 'none' };
  /** The token-choice label of the caller the example was made for. */
  caller: string;
  /** Every caller of the school the route accepts for the example's object (a teacher and a student, say). */
  allowedCallers: string[];
};

/** What one fuzzed request is, as generated (readable in a counterexample). */
export type FuzzRequest = {
  token: string;
  params: Record<string, string>;
  query: string;
  headers: Record<string, string>;
  body: FuzzBody;
};

export type FuzzBody =
  | { kind: 'none' }
  | { kind: 'text'; text: string; contentType: string | null }
  | { kind: 'multipart'; fields: [string, string][]; files: MultipartFile[]; damage: MultipartDamage };

type MultipartDamage = 'none' | 'truncate' | 'wrong-boundary' | 'no-boundary';

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];
const POLLUTION = '{"polluted":"yes"}';

/** Strings a person would not type and a careless server would trip on. */
export const weirdString: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '\u0000',
      '\u0001',
      '\u001f',
      '\u007f',
      '\ud800',
      '\udfff',
      '\u2028',
      '\u202e',
      '\ufeff',
      '\r\n',
      '\t',
    ),
  },
  fc.constantFrom(
    '',
    ' ',
    'null',
    'undefined',
    'true',
    '[]',
    '{}',
    '0',
    '-1',
    '1e400',
    '-0',
    'NaN',
    'Infinity',
    '0x1F',
    '١٢٣',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    'hasOwnProperty',
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFFy',
    '\u202Egnp.exe',
    '\uFEFF',
    '🎓🧮',
    'Ω≈ç√∫',
    '%',
    '%00',
    '%E0%A4%A',
    '../../../etc/passwd',
    '..\\..\\windows',
    '<script>alert(1)</script>',
    "' or 1=1 --",
    '%_\\',
    '${7*7}',
    '{{7*7}}',
    'a'.repeat(300),
    'é'.repeat(5_000),
    'x'.repeat(70_000),
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  // Raw UTF-16 units: control characters and lone surrogates included.
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 12 }),
);

const weirdNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1.5, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, Number.MIN_VALUE, 1e-7),
);

/** Field names of the API's bodies: an added key is often one some schema knows. */
const KNOWN_FIELDS = [
  'subject',
  'class',
  'description',
  'tags',
  'fileName',
  'url',
  'answers',
  'quiz',
  'questions',
  '_id',
  'selectedOption',
  'format',
  'response',
  'type',
  'points',
  'accepted',
  'tolerance',
  'scoring',
  'version',
  'tasks',
  'action',
  'studentId',
  'teacherID',
  'password',
  'email',
];

const weirdKey = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS, '', 'toString', '0', 'a.b'),
  fc.constantFrom(...KNOWN_FIELDS),
  fc.string({ maxLength: 10 }),
);

/** Any JSON value, small but with every kind of leaf. */
export const weirdJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    weirdString,
    weirdNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(weirdKey, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/** Sets an own property (never the __proto__ setter), so JSON.stringify writes the key as given. */
function setOwn(target: object, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

type Mutation =
  | { op: 'set'; at: number; value: unknown }
  | { op: 'splice'; at: number; position: number; text: string }
  | { op: 'delete' | 'stringify' | 'wrap' | 'nullify'; at: number }
  | { op: 'add'; at: number; key: string; value: unknown };

/**
 * What goes inside a valid text: above all what PostgreSQL refuses (a NUL in text, a lone
 * surrogate in jsonb), then other characters nobody types, then anything.
 */
const oddText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('\u0000', '\ud800', '\udfff') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('\u0001', '\u001f', '\u007f', '\u2028', '\u202e', '\ufeff', '\r\n', '%', '\\'),
  },
  { weight: 1, arbitrary: weirdString },
);

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: weirdJson }),
  // A valid text with something inside it: a NUL in a link, a lone surrogate in a name…
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('splice' as const), at: fc.nat(), position: fc.nat(), text: oddText }),
  },
  fc.record({
    op: fc.constantFrom('delete' as const, 'stringify' as const, 'wrap' as const, 'nullify' as const),
    at: fc.nat(),
  }),
  fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: weirdKey, value: weirdJson }),
);

/** Every (container, key) slot of a JSON value, the root's holder first. */
function slotsOf(holder: { root: unknown }): [Record<string, unknown>, string][] {
  const slots: [Record<string, unknown>, string][] = [[holder, 'root']];
  const visit = (value: unknown) => {
    if (value === null || typeof value !== 'object') return;
    for (const key of Object.keys(value)) {
      slots.push([value as Record<string, unknown>, key]);
      visit((value as Record<string, unknown>)[key]);
    }
  };
  visit(holder.root);
  return slots;
}

/** Applies mutations to a copy of a valid JSON body. */
export function mutateJson(valid: unknown, mutations: Mutation[]): unknown {
  const holder = { root: valid === undefined ? undefined : structuredClone(valid) };
  for (const change of mutations) {
    const allSlots = slotsOf(holder);
    // A splice aims at the texts when there are any.
    const texts = allSlots.filter(([container, key]) => typeof container[key] === 'string');
    const slots = change.op === 'splice' && texts.length > 0 ? texts : allSlots;
    const [container, key] = slots[change.at % slots.length]!;
    const current = container[key];
    switch (change.op) {
      case 'set':
        setOwn(container, key, change.value);
        break;
      case 'splice': {
        const text = typeof current === 'string' ? current : JSON.stringify(current ?? '');
        const at = text.length === 0 ? 0 : change.position % (text.length + 1);
        setOwn(container, key, text.slice(0, at) + change.text + text.slice(at));
        break;
      }
      case 'delete':
        if (Array.isArray(container)) container.splice(Number(key), 1);
        else delete container[key];
        break;
      case 'stringify':
        // A number or boolean becomes its text; an object or array its JSON.
        setOwn(container, key, typeof current === 'string' ? current : JSON.stringify(current));
        break;
      case 'wrap':
        setOwn(container, key, [current]);
        break;
      case 'nullify':
        setOwn(container, key, null);
        break;
      case 'add':
        if (current !== null && typeof current === 'object') setOwn(current, change.key, change.value);
        else setOwn(container, change.key, change.value);
        break;
    }
  }
  return holder.root;
}

/** A valid JSON value with up to three mutations, as text. */
export const mutatedJsonText = (valid: unknown): fc.Arbitrary<string> =>
  fc.array(mutation, { maxLength: 3 }).map((mutations) => JSON.stringify(mutateJson(valid, mutations)) ?? '');

/** Broken JSON made from a valid text: cut, spliced, quoted wrongly, commented, with a BOM… */
function brokenJson(validText: string): fc.Arbitrary<string> {
  return fc
    .tuple(fc.nat(), fc.constantFrom('cut', 'splice', 'quotes', 'comma', 'bom', 'comment', 'nan', 'dup'))
    .map(([at, how]) => {
      const position = validText.length === 0 ? 0 : at % validText.length;
      switch (how) {
        case 'cut':
          return validText.slice(0, position);
        case 'splice':
          return `${validText.slice(0, position)}"}]{,:${validText.slice(position)}`;
        case 'quotes':
          return validText.replaceAll('"', "'");
        case 'comma':
          return validText.replace(/}$/, ',}');
        case 'bom':
          return `\uFEFF${validText}`;
        case 'comment':
          return `/* a comment */${validText}`;
        case 'nan':
          return validText.replace(/:\s*("[^"]*"|\d+)/, ':NaN');
        case 'dup':
          return validText.replace(/^{/, '{"x":1,"x":2,');
      }
    });
}

/** Bodies that aim at prototypes, parsers and limits. */
function hostileJsonTexts(validText: string): string[] {
  const withValid = (extra: string) =>
    validText.startsWith('{') && validText !== '{}' ? `{${extra},${validText.slice(1)}` : `{${extra}}`;
  return [
    withValid(`"__proto__":${POLLUTION}`),
    withValid(`"constructor":{"prototype":${POLLUTION}}`),
    `{"a":{"__proto__":${POLLUTION}}}`,
    `[{"__proto__":${POLLUTION}}]`,
    `{"prototype":${POLLUTION},"toString":"x","hasOwnProperty":1}`,
    '['.repeat(20_000) + ']'.repeat(20_000),
    '{"a":'.repeat(8_000) + '1' + '}'.repeat(8_000),
    `"${'x'.repeat(70_000)}"`,
    withValid(`"padding":"${'x'.repeat(40_000)}"`),
    '',
    ' ',
    'null',
    '0',
    '"text"',
    '[]',
    '{}',
  ];
}

/** Header values Node would send (no CR, LF or NUL): anything else is refused before us. */
function isSendableHeader(value: string) {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}

const headerValue: fc.Arbitrary<string> = weirdString.filter(isSendableHeader);

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8'];
const OTHER_TYPES = [
  'APPLICATION/JSON',
  'application/json; charset=utf-16le',
  'application/json; charset=latin1',
  'application/json;',
  'application/jsonx',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary=fuzz',
  'application/octet-stream',
  '*/*',
  ';',
  'application/json, text/plain',
];

const contentType: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...JSON_TYPES) },
  { weight: 3, arbitrary: fc.constantFrom(...OTHER_TYPES) },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: headerValue },
);

const MULTIPART_FIELDS = [
  'class',
  'subject',
  'fileName',
  'description',
  'tags',
  'uploadedBy',
  'file',
  ...PROTOTYPE_KEYS,
];
const sampleFile = fc.constantFrom(...Object.values(SAMPLE_FILES)).map((make) => make());

const multipartFile: fc.Arbitrary<MultipartFile> = fc.record({
  field: fc.oneof({ weight: 4, arbitrary: fc.constant('file') }, weirdString.filter(isSendableHeader)),
  name: fc.oneof(
    fc.constantFrom('notes.pdf', 'photo.png', '../../etc/passwd', '\u202Efdp.exe', '', 'x".pdf', 'a'.repeat(400)),
    weirdString.filter(isSendableHeader),
  ),
  content: fc.oneof(
    { weight: 3, arbitrary: sampleFile },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 4096 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.constant(Buffer.alloc(0)) },
  ),
  contentType: fc.constantFrom('application/pdf', 'image/png', 'text/html', 'application/x-msdownload', 'x'),
});

/** The upload form's fields, all filled in validly. */
const VALID_UPLOAD_FIELDS: [string, string][] = [
  ['class', '7A-matrix'],
  ['subject', 'Physics'],
  ['fileName', 'Fuzz notes.pdf'],
  ['description', 'Notes for the fuzzer'],
  ['tags', 'algebra, notes'],
  ['uploadedBy', '{"_id":"someone"}'],
];

function multipartFuzz(): fc.Arbitrary<FuzzBody> {
  const fieldName = fc.oneof(fc.constantFrom(...MULTIPART_FIELDS), weirdString.filter(isSendableHeader));
  // Mostly the valid fields, some left out, one value spliced or replaced, a stray field added.
  const nearlyValid = fc
    .tuple(
      fc.subarray(VALID_UPLOAD_FIELDS, { minLength: 1 }),
      fc.option(fc.tuple(fc.nat(), fc.nat(), weirdString, fc.boolean())),
      fc.array(fc.tuple(fieldName, weirdString), { maxLength: 2 }),
    )
    .map(([fields, change, extra]) => {
      const changed = fields.map(([name, value], index): [string, string] => {
        if (!change || change[0] % fields.length !== index) return [name, value];
        const [, position, text, isReplacing] = change;
        const at = position % (value.length + 1);
        return [name, isReplacing ? text : value.slice(0, at) + text + value.slice(at)];
      });
      return [...changed, ...extra];
    });
  const oneValidFile = sampleFile.map((content): MultipartFile[] => [
    { field: 'file', name: 'notes.pdf', content, contentType: 'application/octet-stream' },
  ]);
  return fc.record({
    kind: fc.constant('multipart' as const),
    fields: fc.oneof(
      { weight: 3, arbitrary: nearlyValid },
      fc.array(fc.tuple(fieldName, weirdString), { maxLength: 12 }),
    ),
    files: fc.oneof({ weight: 3, arbitrary: oneValidFile }, fc.array(multipartFile, { maxLength: 2 })),
    damage: fc.oneof(
      { weight: 4, arbitrary: fc.constant<MultipartDamage>('none') },
      fc.constantFrom<MultipartDamage>('truncate', 'wrong-boundary', 'no-boundary'),
    ),
  });
}

/** The body arbitrary of a route: mostly its own valid body, mutated; sometimes anything else. */
function bodyFuzz(seed: SeedRequest['body']): fc.Arbitrary<FuzzBody> {
  const validText = seed.kind === 'json' ? JSON.stringify(seed.value) : '{}';
  const text = (texts: fc.Arbitrary<string>, types = contentType) =>
    fc.record({ kind: fc.constant('text' as const), text: texts, contentType: types });
  // A mutated valid body mostly goes as JSON, so it gets past the parser to the schema and the service.
  const mostlyJson = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...JSON_TYPES) }, contentType);
  const fromScratch: fc.WeightedArbitrary<FuzzBody>[] = [
    { weight: 1, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 1, arbitrary: text(fc.json({ maxDepth: 3 })) },
    { weight: 2, arbitrary: text(brokenJson(validText)) },
    { weight: 2, arbitrary: text(fc.constantFrom(...hostileJsonTexts(validText))) },
    { weight: 1, arbitrary: text(weirdString) },
  ];
  if (seed.kind === 'json') {
    return fc.oneof({ weight: 6, arbitrary: text(mutatedJsonText(seed.value), mostlyJson) }, ...fromScratch);
  }
  if (seed.kind === 'multipart') return fc.oneof({ weight: 6, arbitrary: multipartFuzz() }, ...fromScratch);
  return fc.oneof({ weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) }, ...fromScratch, {
    weight: 1,
    arbitrary: multipartFuzz(),
  });
}

const QUERY_KEYS = ['class', 'search', 'offset', 'limit', 'view', 'type', 'fileType', 'sortBy', 'sortOrder', 'starred'];
const QUERY_VALUES = ['online', 'attempted', 'createdAt', 'fileName', 'asc', 'desc', 'true', 'false', 'application'];
const queryValue = fc.oneof(
  fc.constantFrom(...QUERY_VALUES, '7A-matrix', '7B-matrix', '0', '10', '100', '101', '1000001', ' 5', '5.5', '1e3'),
  weirdString,
);

/** encodeURIComponent, with lone surrogates replaced as a browser's encoder does (it cannot encode them). */
export const encodeText = (text: string) =>
  encodeURIComponent(text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

/** Encodes a query the way a browser does, or leaves a part raw (broken percent-encoding included). */
function encodeQuery(pairs: [string, string][], raw: boolean): string {
  const encode = (text: string) => (raw ? text.replace(/[#&\s]/g, '') : encodeText(text));
  return pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
}

function queryFuzz(seed: [string, string][]): fc.Arbitrary<string> {
  const keys = [...new Set([...QUERY_KEYS, ...seed.map(([key]) => key)])];
  const pair = fc.tuple(fc.oneof(fc.constantFrom(...keys), weirdKey), queryValue);
  const pairs = fc.oneof(
    { weight: 3, arbitrary: fc.constant(seed) },
    // The valid query with pairs added (a key twice, a prototype key…) or one value replaced.
    { weight: 3, arbitrary: fc.array(pair, { maxLength: 3 }).map((extra) => [...seed, ...extra]) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.nat(), queryValue)
        .map(([at, value]) => seed.map(([key, old], index) => [key, index === at % seed.length ? value : old])),
    },
    { weight: 2, arbitrary: fc.array(pair, { maxLength: 6 }) },
  ) as fc.Arbitrary<[string, string][]>;
  return fc.tuple(pairs, fc.boolean(), fc.boolean()).map(([list, raw, isBracketed]) => {
    const query = encodeQuery(list, raw && list.every(([key, value]) => !/[^\x21-\x7e]/.test(key + value)));
    return isBracketed ? `${query}&a[b]=c&a[]=d` : query;
  });
}

const EXTRA_HEADERS = [
  'range',
  'accept',
  'x-forwarded-for',
  'if-none-match',
  'origin',
  'cookie',
  'x-http-method-override',
];

const headersFuzz: fc.Arbitrary<Record<string, string>> = fc
  .array(
    fc.tuple(
      fc.constantFrom(...EXTRA_HEADERS),
      fc.oneof(
        fc.constantFrom('bytes=0-3', 'bytes=-5', 'bytes=5-', 'bytes=0-0,2-3', 'bytes=999999-', 'DELETE'),
        headerValue,
      ),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => Object.fromEntries(pairs));

/**
 * A route's fuzzed requests. `ids` are values worth trying in any path parameter (the
 * school's objects); `tokens` the labels of the token choices (see the fuzz suite).
 */
export function fuzzRequest(
  routeUrl: string,
  seed: SeedRequest,
  options: { ids: string[]; tokens: string[]; ghostOf: (caller: string) => string | undefined },
): fc.Arbitrary<FuzzRequest> {
  const paramNames = routeUrl
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
  const paramValue = (name: string) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(seed.params[name] ?? 'x') },
      { weight: 2, arbitrary: fc.constantFrom(...options.ids) },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 3, arbitrary: weirdString },
    );
  const params = fc.record(Object.fromEntries(paramNames.map((name) => [name, paramValue(name)])));
  // The example's caller, the same role with an account that is gone, or any other credential.
  const ghost = options.ghostOf(seed.caller);
  const token = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...seed.allowedCallers) },
    ...(ghost ? [{ weight: 1, arbitrary: fc.constant(ghost) }] : []),
    { weight: 3, arbitrary: fc.constantFrom(...options.tokens) },
  );
  return fc.record({
    token,
    params,
    query: queryFuzz(seed.query),
    headers: headersFuzz,
    body: bodyFuzz(seed.body),
  });
}

/**
 * The deterministic part of the fuzzing: the route's valid request with one hostile change
 * at a time, at every place a value goes (each text of the body, each body value, each query
 * value, each path parameter), sent by each caller the route accepts in turn. Run before the random requests,
 * so every field meets a NUL, a lone surrogate and a huge text on every run.
 */
export function singlePointRequests(
  routeUrl: string,
  seed: SeedRequest,
  otherCredentials: string[] = [],
): FuzzRequest[] {
  const base: FuzzRequest = {
    token: seed.caller,
    params: seed.params,
    query: encodeQuery(seed.query, false),
    headers: {},
    body:
      seed.body.kind === 'json'
        ? { kind: 'text', text: JSON.stringify(seed.body.value), contentType: 'application/json' }
        : { kind: 'none' },
  };
  const HOSTILE_TEXTS = ['\u0000', '\ud800', 'x'.repeat(5_000)];
  const requests: FuzzRequest[] = [];
  if (seed.body.kind === 'json') {
    const value = seed.body.value;
    const slots = slotsOf({ root: structuredClone(value) });
    slots.forEach(([container, key], at) => {
      const mutations: Mutation[] = [
        { op: 'nullify', at },
        { op: 'wrap', at },
        { op: 'stringify', at },
        { op: 'set', at, value: 12345 },
        ...(typeof container[key] === 'string'
          ? HOSTILE_TEXTS.map((text): Mutation => ({ op: 'set', at, value: `${String(container[key])}${text}` }))
          : []),
      ];
      for (const change of mutations) {
        const text = JSON.stringify(mutateJson(value, [change])) ?? '';
        requests.push({ ...base, body: { kind: 'text', text, contentType: 'application/json' } });
      }
    });
  }
  if (seed.body.kind === 'multipart') {
    const pdf: MultipartFile = { field: 'file', name: 'notes.pdf', content: SAMPLE_FILES.pdf() };
    const form = (
      fields: [string, string][],
      files: MultipartFile[],
      damage: MultipartDamage = 'none',
    ): FuzzRequest => ({
      ...base,
      body: { kind: 'multipart', fields, files, damage },
    });
    VALID_UPLOAD_FIELDS.forEach(([name, value], index) => {
      for (const text of HOSTILE_TEXTS) {
        const fields = VALID_UPLOAD_FIELDS.map((field, at): [string, string] =>
          at === index ? [name, value + text] : field,
        );
        requests.push(form(fields, [pdf]));
      }
      requests.push(form([...VALID_UPLOAD_FIELDS, [name, 'twice']], [pdf]));
    });
    for (const [kind, make] of Object.entries(SAMPLE_FILES)) {
      requests.push(form(VALID_UPLOAD_FIELDS, [{ field: 'file', name: `sample.${kind}`, content: make() }]));
    }
    requests.push(form(VALID_UPLOAD_FIELDS, [{ ...pdf, name: 'a\u0000b\ud800.pdf' }]));
    requests.push(form(VALID_UPLOAD_FIELDS, [pdf, pdf]));
    requests.push(form(VALID_UPLOAD_FIELDS, []));
    requests.push(form([['__proto__', 'x'], ...VALID_UPLOAD_FIELDS], [pdf]));
    for (const damage of ['truncate', 'wrong-boundary', 'no-boundary'] as const) {
      requests.push(form(VALID_UPLOAD_FIELDS, [pdf], damage));
    }
  }
  seed.query.forEach(([name], index) => {
    for (const hostile of [...HOSTILE_TEXTS, '1e400', '-1']) {
      const query = seed.query.map(([key, old], at): [string, string] => [key, at === index ? hostile : old]);
      requests.push({ ...base, query: encodeQuery(query, false) });
    }
    requests.push({ ...base, query: encodeQuery([...seed.query, [name, 'twice']], false) });
  });
  for (const name of Object.keys(seed.params)) {
    for (const hostile of [...HOSTILE_TEXTS, '__proto__']) {
      requests.push({ ...base, params: { ...seed.params, [name]: `${seed.params[name]}${hostile}` } });
    }
  }
  // Each accepted caller in turn: a teacher's and a student's view of the same route both meet every change.
  const rotated = requests.map((request, index) => ({
    ...request,
    token: seed.allowedCallers[index % seed.allowedCallers.length]!,
  }));
  // And the valid request itself with other credentials (an account deleted since, none…).
  return [...rotated, ...otherCredentials.map((token) => ({ ...base, token }))];
}

/** The path of a fuzzed request: parameters encoded (a few left raw, broken encodings included). */
export function pathOf(routeUrl: string, request: FuzzRequest): string {
  const path = routeUrl
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const value = request.params[segment.slice(1)] ?? '';
      // A few values go raw: broken percent-encodings and dot segments reach the router as sent.
      return /^(%|%00|%E0%A4%A|\.\.[/\\].*)$/.test(value) ? value : encodeText(value);
    })
    .join('/');
  return request.query ? `${path}?${request.query}` : path;
}

/** The payload and content type of a fuzzed body. */
export function payloadOf(body: FuzzBody): { payload?: string | Buffer; contentType?: string } {
  if (body.kind === 'none') return {};
  if (body.kind === 'text')
    return { payload: body.text, ...(body.contentType === null ? {} : { contentType: body.contentType }) };
  const { payload, headers } = multipartBody(body.fields, body.files);
  switch (body.damage) {
    case 'truncate':
      return { payload: payload.subarray(0, Math.floor(payload.length / 2)), contentType: headers['content-type'] };
    case 'wrong-boundary':
      return { payload, contentType: 'multipart/form-data; boundary=not-the-boundary' };
    case 'no-boundary':
      return { payload, contentType: 'multipart/form-data' };
    case 'none':
      return { payload, contentType: headers['content-type'] };
  }
}
