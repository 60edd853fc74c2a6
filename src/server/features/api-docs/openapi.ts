import { z } from 'zod';
import type { EndpointSpec, MultipartBody } from '#shared/contract/endpoint';
import { ERROR_CODES, type ErrorCode } from '#shared/error-codes';
import { FIELD_ERROR_CODES } from '#shared/field-error-codes';
import { FIELD_ERROR_MEANINGS } from './field-error-meanings.ts';
import { THROTTLE_LIMITS, throttledFieldsSchema } from '#shared/throttle';
import { CALLERS, isApiPath, type DeclaredRoute, type RoutePolicy } from '../../plugins/route-policy.ts';
import { failureCodesOf } from './failure-codes.ts';

/**
 * The OpenAPI 3.1 document of the routes the app registered (decision 026): each /api route's
 * shared endpoint gives its inputs, answers and codes, its declared policy its security. Built
 * from the routes, not from a list, so a route cannot be served without being described.
 */

export type JsonSchema = Record<string, unknown>;
export type OpenApiDocument = {
  openapi: '3.1.1';
  info: { title: string; version: string; description: string };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, JsonSchema>; schemas: Record<string, JsonSchema> };
};
export type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  'x-caller': string;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, Response>;
  'x-websocket'?: JsonSchema;
};
type Parameter = { name: string; in: 'path' | 'query'; required: boolean; description?: string; schema: JsonSchema };
type Response = { description: string; content?: Record<string, { schema: JsonSchema }>; headers?: JsonSchema };

/** The credential of each caller kind, as a security scheme (none for anyone). */
const SECURITY_OF_CALLER: Record<RoutePolicy['caller'], Record<string, string[]>[]> = {
  anyone: [],
  'signed-in': [{ bearerToken: [] }],
  teacher: [{ bearerToken: [] }],
  administrator: [{ bearerToken: [] }],
  student: [{ bearerToken: [] }],
  'file-link': [{ fileAccess: [] }],
  'meeting-token': [{ meetingToken: [] }],
  'live-token': [{ liveGameToken: [] }],
  'board-token': [{ classBoardToken: [] }],
};

const SECURITY_SCHEMES = {
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The session token a login answers (12 hours). x-caller says which role an operation admits.',
  },
  fileAccess: {
    type: 'apiKey',
    in: 'query',
    name: 'access',
    description: 'The signed access value of a file address (a resource’s fileURL), for one user and file',
  },
  meetingToken: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'A meeting token from POST /api/meetings/{roomId}/token',
  },
  liveGameToken: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'A live game’s room token from POST /api/live-games/{id}/token',
  },
  classBoardToken: {
    type: 'apiKey',
    in: 'query',
    name: 'token',
    description: 'A class board’s room token from POST /api/class-boards/{classId}/token',
  },
};

const PAGE_INFO: JsonSchema = {
  type: 'object',
  required: ['offset', 'limit', 'hasMore'],
  properties: { offset: { type: 'integer' }, limit: { type: 'integer' }, hasMore: { type: 'boolean' } },
  additionalProperties: false,
};

const FIELD_ERRORS: JsonSchema = {
  type: 'array',
  description:
    'One entry per problem, named by its dotted path, so a form can show it beside the field; ' +
    'its code and params say what is wrong (components/schemas/FieldErrorCode), for clients to word',
  items: {
    type: 'object',
    required: ['field', 'code', 'message'],
    properties: {
      field: { type: 'string' },
      code: { $ref: '#/components/schemas/FieldErrorCode' },
      params: {
        type: 'object',
        description: 'The numbers and names the wording needs (minimum, maximum, firstRow...)',
        additionalProperties: true,
      },
      message: { type: 'string', description: 'The problem in English, for logs and API users' },
    },
    additionalProperties: false,
  },
};

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect): what a client sends, or what it receives. */
export function jsonSchemaOf(schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** The success envelope around `data`. */
function successEnvelope(data: JsonSchema, isPaged: boolean): JsonSchema {
  return {
    type: 'object',
    required: ['success', 'message', 'data', ...(isPaged ? ['page'] : [])],
    properties: {
      success: { const: true },
      message: { type: 'string', description: 'For people: shown as a notice' },
      data,
      ...(isPaged ? { page: PAGE_INFO } : {}),
    },
    additionalProperties: false,
  };
}

/**
 * The failure envelope with the codes one status of one operation may carry. THROTTLED is the
 * only code of its status (429) and the only one that names its budget and wait.
 */
export function failureEnvelope(codes: readonly ErrorCode[]): JsonSchema {
  const isThrottled = codes.includes('THROTTLED');
  const throttled = jsonSchemaOf(throttledFieldsSchema, 'output') as { required: string[]; properties: JsonSchema };
  return {
    type: 'object',
    required: ['success', 'code', 'message', 'data', ...(isThrottled ? throttled.required : [])],
    properties: {
      success: { const: false },
      code: { enum: [...codes], description: 'What went wrong, for code to act on (components/schemas/ErrorCode)' },
      message: { type: 'string', description: 'For people: shown as an error toast' },
      data: { type: 'null' },
      errors: FIELD_ERRORS,
      ...(isThrottled ? throttled.properties : {}),
    },
    additionalProperties: false,
  };
}

const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** `/api/quiz/:id` -> `/api/quiz/{id}` */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function parametersOf(endpoint: EndpointSpec): Parameter[] {
  const parameters: Parameter[] = [];
  for (const [place, schema] of [
    ['path', endpoint.params],
    ['query', endpoint.query],
  ] as const) {
    if (!schema) continue;
    const object = jsonSchemaOf(schema, 'input');
    const required = new Set((object.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((object.properties ?? {}) as Record<string, JsonSchema>)) {
      const { description, ...propertySchema } = property;
      parameters.push({
        name,
        in: place,
        required: place === 'path' || required.has(name),
        ...(typeof description === 'string' ? { description } : {}),
        schema: propertySchema,
      });
    }
  }
  return parameters;
}

function multipartSchema(body: MultipartBody): JsonSchema {
  const fields = jsonSchemaOf(body.fields, 'input');
  const properties = { ...(fields.properties as Record<string, JsonSchema>) };
  for (const file of body.files) {
    properties[file.name] = {
      type: 'string',
      contentMediaType: 'application/octet-stream',
      description: file.description,
    };
  }
  return {
    type: 'object',
    required: [...((fields.required as string[] | undefined) ?? []), ...body.files.map((file) => file.name)],
    properties,
  };
}

function requestBodyOf(endpoint: EndpointSpec): Operation['requestBody'] {
  const body = endpoint.body;
  if (!body) return undefined;
  if ('form' in body) return { required: true, content: { 'multipart/form-data': { schema: multipartSchema(body) } } };
  const schema = jsonSchemaOf(body, 'input');
  // A body that may be left out (the empty bodies of the profile calls) is not required.
  return { required: !body.safeParse(undefined).success, content: jsonContent(schema) };
}

function successResponses(endpoint: EndpointSpec): Operation['responses'] {
  const answer = endpoint.response;
  if (!('form' in answer)) {
    return {
      [String(endpoint.status ?? 200)]: {
        description: endpoint.summary,
        content: jsonContent(successEnvelope(jsonSchemaOf(answer, 'output'), endpoint.paged === true)),
      },
    };
  }
  switch (answer.form) {
    case 'bare-json':
      return Object.fromEntries(
        Object.entries(answer.statuses).map(([status, schema]) => [
          status,
          { description: `Bare JSON (not the envelope)`, content: jsonContent(jsonSchemaOf(schema, 'output')) },
        ]),
      );
    case 'file': {
      const content = { [answer.mediaType]: { schema: { type: 'string', contentMediaType: answer.mediaType } } };
      return { '200': { description: answer.description, content } };
    }
    case 'websocket':
      return { '101': { description: 'Switching Protocols: the socket is open; every refusal is a close code' } };
  }
}

/** The failures of an operation, grouped by their status (fixed per code). */
function failureResponses(codes: readonly ErrorCode[]): Operation['responses'] {
  const byStatus = new Map<string, ErrorCode[]>();
  for (const code of codes) {
    const status = String(ERROR_CODES[code].status);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, statusCodes]) => [
      status,
      {
        description: statusCodes.map((code) => `${code}: ${ERROR_CODES[code].meaning}`).join('. '),
        content: jsonContent(failureEnvelope(statusCodes)),
        ...(statusCodes.includes('THROTTLED')
          ? { headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } }
          : {}),
      },
    ]),
  );
}

function operationOf(route: DeclaredRoute & { endpoint: EndpointSpec }, tag: string): Operation {
  const { endpoint, policy } = route;
  const caller = policy?.caller ?? 'anyone';
  const parameters = parametersOf(endpoint);
  const requestBody = requestBodyOf(endpoint);
  const answer = endpoint.response;
  return {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.url).replace(/[^A-Za-z0-9]+(.)?/g, (_match, next?: string) => (next ?? '').toUpperCase())}`,
    summary: endpoint.summary,
    ...(endpoint.description ? { description: endpoint.description } : {}),
    tags: [tag],
    security: SECURITY_OF_CALLER[caller],
    'x-caller': `${caller}: ${CALLERS[caller]}`,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: { ...successResponses(endpoint), ...failureResponses(failureCodesOf(endpoint, route)) },
    ...('form' in answer && answer.form === 'websocket'
      ? {
          'x-websocket': {
            clientMessages: jsonSchemaOf(answer.clientMessages, 'input'),
            serverMessages: jsonSchemaOf(answer.serverMessages, 'output'),
            closeCodes: answer.closeCodes,
          },
        }
      : {}),
  };
}

/**
 * The document for the app's declared routes. `tagOf` names the contract module (feature) of
 * an endpoint. HEAD twins of GET routes (Fastify adds them) are not operations of their own.
 */
export function buildOpenApiDocument(
  routes: readonly DeclaredRoute[],
  tagOf: (endpoint: EndpointSpec) => string,
  info: { version: string },
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const route of routes) {
    if (!isApiPath(route.url) || route.method === 'HEAD' || !route.endpoint) continue;
    const tag = tagOf(route.endpoint);
    tags.add(tag);
    const path = openApiPath(route.url);
    paths[path] = {
      ...paths[path],
      [route.method.toLowerCase()]: operationOf({ ...route, endpoint: route.endpoint }, tag),
    };
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'StudyHall API',
      version: info.version,
      description:
        'Every answer is JSON in an envelope: {success, message, data} (and page for paged lists). ' +
        'Failures use real HTTP statuses and carry a stable code beside the message a person reads; ' +
        'decide from the code (components/schemas/ErrorCode). Generated from the shared contract (src/shared/contract).',
    },
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      schemas: {
        ErrorCode: {
          enum: Object.keys(ERROR_CODES),
          description: Object.entries(ERROR_CODES)
            .map(([code, { status, meaning }]) => `${code} (${status}): ${meaning}`)
            .join('\n'),
        },
        FieldErrorCode: {
          enum: [...FIELD_ERROR_CODES],
          description: Object.entries(FIELD_ERROR_MEANINGS)
            .map(([code, meaning]) => `${code}: ${meaning}`)
            .join('\n'),
        },
        ThrottleLimit: {
          enum: Object.keys(THROTTLE_LIMITS),
          description: Object.entries(THROTTLE_LIMITS)
            .map(([limit, meaning]) => `${limit}: ${meaning}`)
            .join('\n'),
        },
      },
    },
  };
}
