import { readFileSync } from 'node:fs';
import type { FastifyPluginAsync } from 'fastify';
import { getApiReference, getApiReferenceStyle, getOpenApiDocument } from '#shared/contract/api-docs';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import type { DeclaredRoute } from '../../plugins/route-policy.ts';
import { featureOf } from './contract-features.ts';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.ts';
import { REFERENCE_STYLESHEET, renderReferencePage } from './reference-page.ts';

const { version } = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * GET /api/openapi.json and the page that reads it, /api/docs (decision 026). Public: they
 * describe the API, nothing stored. Built on the first request, once every route is registered.
 */
export function apiDocsRoutes(routes: () => readonly DeclaredRoute[]): FastifyPluginAsync {
  return async (app) => {
    let built: { document: OpenApiDocument; page: string } | undefined;
    const current = () => {
      if (!built) {
        const document = buildOpenApiDocument(routes(), featureOf(), { version });
        built = { document, page: renderReferencePage(document) };
      }
      return built;
    };
    const publicDescription: RouteSettings = { config: { policy: { caller: 'anyone', touches: ['nothing'] } } };

    routeEndpoint(app, getOpenApiDocument, publicDescription, async () => current().document);
    routeEndpoint(app, getApiReference, publicDescription, async (_request, reply) =>
      reply.type('text/html; charset=utf-8').send(current().page),
    );
    routeEndpoint(app, getApiReferenceStyle, publicDescription, async (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(REFERENCE_STYLESHEET),
    );
  };
}
