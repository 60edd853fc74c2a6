import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../plugins/security-headers.ts';
import { DEFAULT_LARGE_BODY_LIMITS } from '../../plugins/large-bodies.ts';
import { declaredRoutes, isApiPath, type DeclaredRoute, type RoutePolicy } from '../../plugins/route-policy.ts';
import { createTestApp, type TestApp } from '../../testing/test-app.ts';
import { FIELD_ERROR_CODES } from '#shared/field-error-codes';
import { THROTTLE_LIMITS } from '#shared/throttle';
import { contractEndpoints } from './contract-features.ts';
import { openApiPath, type JsonSchema, type OpenApiDocument } from './openapi.ts';

let t: TestApp;
let document: OpenApiDocument;

beforeAll(async () => {
  t = await createTestApp();
  const response = await t.call({ method: 'GET', url: '/api/openapi.json' });
  expect(response.status).toBe(200);
  document = response.body as OpenApiDocument;
});
afterAll(async () => {
  await t.close();
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const JSON_TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];

/** Problems of a JSON Schema (2020-12, OpenAPI 3.1's dialect) the generator could plausibly get wrong. */
function schemaProblems(schema: unknown, at: string): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [`${at}: not a schema object`];
  const object = schema as JsonSchema;
  const problems: string[] = [];
  if ('$ref' in object && typeof object.$ref !== 'string') problems.push(`${at}: $ref is not a string`);
  const types = (object.type === undefined ? [] : [object.type].flat()) as unknown[];
  for (const type of types)
    if (typeof type !== 'string' || !JSON_TYPES.includes(type))
      problems.push(`${at}: unknown type ${JSON.stringify(type)}`);
  if (object.properties !== undefined) {
    for (const [name, property] of Object.entries(object.properties as Record<string, unknown>))
      problems.push(...schemaProblems(property, `${at}.properties.${name}`));
  }
  if (object.required !== undefined) {
    if (!Array.isArray(object.required)) problems.push(`${at}: required is not a list`);
    else if (typeof object.properties === 'object' && object.properties !== null)
      for (const name of object.required as unknown[])
        if (typeof name !== 'string' || !Object.hasOwn(object.properties, name))
          problems.push(`${at}: required ${String(name)} is not a property`);
  }
  if (object.items !== undefined) problems.push(...schemaProblems(object.items, `${at}.items`));
  if (typeof object.additionalProperties === 'object')
    problems.push(...schemaProblems(object.additionalProperties, `${at}.additionalProperties`));
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
    if (object[key] === undefined) continue;
    if (!Array.isArray(object[key])) problems.push(`${at}: ${key} is not a list`);
    else
      (object[key] as unknown[]).forEach((part, index) =>
        problems.push(...schemaProblems(part, `${at}.${key}.${index}`)),
      );
  }
  if ('enum' in object && !Array.isArray(object.enum)) problems.push(`${at}: enum is not a list`);
  return problems;
}

/** The structure OpenAPI 3.1 requires of what we generate (no validator package: checked here). */
function documentProblems(doc: OpenApiDocument): string[] {
  const problems: string[] = [];
  if (!/^3\.1\.\d+$/.test(doc.openapi)) problems.push(`openapi is ${doc.openapi}, not 3.1.x`);
  if (typeof doc.info?.title !== 'string' || typeof doc.info.version !== 'string')
    problems.push('info needs title and version');
  const schemes = doc.components.securitySchemes;
  for (const [name, scheme] of Object.entries(schemes)) {
    if (!['apiKey', 'http', 'mutualTLS', 'oauth2', 'openIdConnect'].includes(scheme.type as string))
      problems.push(`securityScheme ${name}: type`);
    if (
      scheme.type === 'apiKey' &&
      !(typeof scheme.name === 'string' && ['query', 'header', 'cookie'].includes(scheme.in as string))
    )
      problems.push(`securityScheme ${name}: apiKey needs name and in`);
  }
  const declaredTags = new Set(doc.tags.map((tag) => tag.name));
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths)) {
    if (!path.startsWith('/')) problems.push(`${path}: a path starts with /`);
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    for (const [method, operation] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`;
      if (!METHODS.includes(method)) problems.push(`${at}: not an HTTP method`);
      if (operationIds.has(operation.operationId)) problems.push(`${at}: operationId ${operation.operationId} twice`);
      operationIds.add(operation.operationId);
      for (const tag of operation.tags) if (!declaredTags.has(tag)) problems.push(`${at}: tag ${tag} not declared`);
      for (const requirement of operation.security)
        for (const name of Object.keys(requirement))
          if (!(name in schemes)) problems.push(`${at}: security ${name} unknown`);
      const parameters = operation.parameters ?? [];
      for (const parameter of parameters) {
        if (!['path', 'query', 'header', 'cookie'].includes(parameter.in)) problems.push(`${at}: parameter in`);
        if (parameter.in === 'path' && parameter.required !== true) problems.push(`${at}: path parameter not required`);
        problems.push(...schemaProblems(parameter.schema, `${at} parameter ${parameter.name}`));
      }
      const pathParameters = parameters
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => parameter.name);
      if ([...pathParameters].sort().join() !== [...templated].sort().join())
        problems.push(`${at}: path parameters ${pathParameters.join()} do not match the template`);
      for (const [mediaType, content] of Object.entries(operation.requestBody?.content ?? {}))
        problems.push(...schemaProblems(content.schema, `${at} body ${mediaType}`));
      if (Object.keys(operation.responses).length === 0) problems.push(`${at}: no responses`);
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!/^([1-5]\d\d|[1-5]XX|default)$/.test(status)) problems.push(`${at}: response key ${status}`);
        if (typeof response.description !== 'string') problems.push(`${at} ${status}: a response needs a description`);
        for (const [mediaType, content] of Object.entries(response.content ?? {}))
          problems.push(...schemaProblems(content.schema, `${at} ${status} ${mediaType}`));
      }
    }
  }
  return problems;
}

const SECURITY_OF: Record<RoutePolicy['caller'], string[]> = {
  anyone: [],
  'signed-in': ['bearerToken'],
  teacher: ['bearerToken'],
  administrator: ['bearerToken'],
  student: ['bearerToken'],
  'file-link': ['fileAccess'],
  'meeting-token': ['meetingToken'],
  'live-token': ['liveGameToken'],
  'board-token': ['classBoardToken'],
};

describe('GET /api/openapi.json (decision 026)', () => {
  it('is an OpenAPI 3.1 document in the structure the specification requires', () => {
    expect(documentProblems(document)).toEqual([]);
  });

  it('describes every registered /api route, with the security its policy declares, and nothing else', () => {
    const apiRoutes = declaredRoutes(t.app).filter((route) => isApiPath(route.url) && route.method !== 'HEAD');
    expect(apiRoutes.length).toBeGreaterThanOrEqual(40);
    for (const route of apiRoutes) {
      const label = `${route.method} ${route.url}`;
      expect(route.endpoint, `${label} is registered from a shared endpoint`).toBeDefined();
      const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
      expect(operation, `${label} is in the document`).toBeDefined();
      const schemes = operation!.security.flatMap((requirement) => Object.keys(requirement));
      expect(schemes, `${label}: security`).toEqual(SECURITY_OF[route.policy!.caller]);
      expect(operation!['x-caller'].startsWith(`${route.policy!.caller}:`), label).toBe(true);
    }
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(apiRoutes.map((route) => `${route.method} ${openApiPath(route.url)}`).sort());
  });

  it('serves every endpoint of the contract: none is described and left unregistered', () => {
    const registered = new Set(declaredRoutes(t.app).map((route) => route.endpoint));
    const missing = contractEndpoints().filter(({ endpoint }) => !registered.has(endpoint));
    expect(missing.map(({ endpoint }) => `${endpoint.method} ${endpoint.path}`)).toEqual([]);
  });

  it('lists the codes of each operation under their statuses, the bearer token failures where a token is needed', () => {
    const quiz = document.paths['/api/quiz/{id}/answers']!.put!;
    const codesAt = (status: string) =>
      (quiz.responses[status]?.content?.['application/json']?.schema.properties as Record<string, JsonSchema>).code!
        .enum;
    expect(codesAt('409')).toEqual(['QUIZ_NOT_STARTED', 'QUIZ_ALREADY_SUBMITTED']);
    expect(codesAt('401')).toEqual([
      'NOT_SIGNED_IN',
      'SESSION_EXPIRED',
      'SIGNED_OUT',
      'ACCOUNT_REMOVED',
      'ACCOUNT_DEACTIVATED',
    ]);
    expect(codesAt('400')).toEqual(expect.arrayContaining(['VALIDATION_FAILED', 'UNKNOWN_FIELD', 'MALFORMED_REQUEST']));
    expect(document.paths['/api/quote']!.get!.responses['401']).toBeUndefined();
    expect(document.paths['/api/teacher/login']!.post!.responses['429']!.headers).toHaveProperty('Retry-After');
  });

  it('lists THROTTLED where a throttle sits and SERVER_BUSY on the large-body lane (decision 023)', () => {
    const apiRoutes = declaredRoutes(t.app).filter((route) => isApiPath(route.url) && route.method !== 'HEAD');
    const codesOf = (route: DeclaredRoute) =>
      Object.values(document.paths[openApiPath(route.url)]![route.method.toLowerCase()]!.responses).flatMap(
        (response) =>
          ((response.content?.['application/json']?.schema.properties as Record<string, JsonSchema> | undefined)?.code
            ?.enum ?? []) as string[],
      );
    const label = (route: DeclaredRoute) => `${route.method} ${route.url}`;
    const throttled = apiRoutes.filter((route) => route.isThrottled);
    const large = apiRoutes.filter((route) => (route.bodyLimit ?? 0) > DEFAULT_LARGE_BODY_LIMITS.thresholdBytes);
    // The hooks are found however a route attaches them: these are known to have one.
    expect(throttled.map(label)).toEqual(
      expect.arrayContaining([
        'POST /api/teacher/login',
        'POST /api/student/register',
        'POST /api/teacher/add-quiz',
        'POST /api/classes/:id/students',
      ]),
    );
    expect(large.map(label)).toEqual(
      expect.arrayContaining(['POST /api/teacher/add-quiz', 'PUT /api/quiz/:id/answers']),
    );
    for (const route of throttled) expect(codesOf(route), label(route)).toContain('THROTTLED');
    for (const route of large)
      expect(codesOf(route), label(route)).toEqual(expect.arrayContaining(['THROTTLED', 'SERVER_BUSY']));
    for (const route of apiRoutes.filter((route) => !throttled.includes(route) && !large.includes(route)))
      expect(codesOf(route), label(route)).not.toContain('THROTTLED');
  });

  it('lists the field error codes, and names one on every field error', () => {
    expect(document.components.schemas.FieldErrorCode!.enum).toEqual([...FIELD_ERROR_CODES]);
    const refused = document.paths['/api/student/register']!.post!.responses['400']!.content!['application/json']!;
    const errors = (refused.schema.properties as Record<string, JsonSchema>).errors!;
    expect(errors.items).toMatchObject({
      required: ['field', 'code', 'message'],
      properties: { code: { $ref: '#/components/schemas/FieldErrorCode' } },
    });
  });

  it('describes a THROTTLED failure with the budget that refused and its wait, and no other failure with them', () => {
    const login = document.paths['/api/teacher/login']!.post!.responses;
    const throttled = login['429']!.content!['application/json']!.schema;
    const properties = throttled.properties as Record<string, JsonSchema>;
    expect(throttled.required).toEqual(expect.arrayContaining(['code', 'limit', 'retryAfterSeconds']));
    expect(properties.limit!.enum).toEqual(Object.keys(THROTTLE_LIMITS));
    expect(properties.retryAfterSeconds).toMatchObject({ type: 'integer', minimum: 1 });
    expect(document.components.schemas.ThrottleLimit!.enum).toEqual(Object.keys(THROTTLE_LIMITS));
    const unauthorized = login['401']!.content!['application/json']!.schema.properties as Record<string, JsonSchema>;
    expect(unauthorized).not.toHaveProperty('limit');
  });

  it('describes the upload as a multipart form and the socket with its messages', () => {
    const upload = document.paths['/api/teacher/upload-resource']!.post!;
    const form = upload.requestBody!.content['multipart/form-data']!.schema;
    expect(form.required).toEqual(expect.arrayContaining(['classId', 'file']));
    const socket = document.paths['/api/meetings/ws']!.get!;
    expect(Object.keys(socket.responses)).toContain('101');
    expect(socket['x-websocket']).toHaveProperty('closeCodes.ROOM_FULL', 4409);
  });
});

describe('GET /api/docs', () => {
  it('is a page of our origin with no script and no inline style, under the same CSP', async () => {
    const page = await t.call({ method: 'GET', url: '/api/docs' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(page.raw).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    expect(page.raw).toContain('<link rel="stylesheet" href="/api/docs/reference.css">');
    for (const path of Object.keys(document.paths)) expect(page.raw).toContain(`<code>${path}</code>`);
    expect(page.raw).toContain('QUIZ_ALREADY_SUBMITTED');
    for (const limit of Object.keys(THROTTLE_LIMITS)) expect(page.raw).toContain(`<code>${limit}</code>`);

    const style = await t.call({ method: 'GET', url: '/api/docs/reference.css' });
    expect(style.status).toBe(200);
    expect(style.headers['content-type']).toMatch(/^text\/css/);
  });
});
