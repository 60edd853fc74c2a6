import { z } from 'zod/mini';
import { defineEndpoint } from './endpoint.ts';

/** The API's own description (decision 026): generated from this contract, served by the app. */

export const getOpenApiDocument = defineEndpoint({
  method: 'GET',
  path: '/api/openapi.json',
  summary: 'This API as an OpenAPI 3.1 document, generated from the shared contract',
  response: { form: 'bare-json', statuses: { 200: z.looseObject({ openapi: z.string() }) } },
});

export const getApiReference = defineEndpoint({
  method: 'GET',
  path: '/api/docs',
  summary: 'The same description as a page to read',
  response: { form: 'file', mediaType: 'text/html', description: 'A static page: no script' },
});

export const getApiReferenceStyle = defineEndpoint({
  method: 'GET',
  path: '/api/docs/reference.css',
  summary: "The reference page's stylesheet (the CSP allows only our own)",
  response: { form: 'file', mediaType: 'text/css', description: 'CSS' },
});
