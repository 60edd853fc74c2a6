import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { unauthorized } from '../errors.ts';
import { requireRole, type TokenService } from './auth.ts';
import { declaredRoutes, enforceRoutePolicies, type RoutePolicy } from './route-policy.ts';

/**
 * The policy hook on a bare Fastify: what it refuses at start-up and the token check it
 * derives. The real app's routes are held to their policies by the authorization matrix
 * (src/server/security/authorization-matrix.test.ts).
 */

const teacherToken = 'a-teacher-token';
const studentToken = 'a-student-token';
/** A token service that knows two tokens: all the guards need (the real one is auth.test.ts's). */
const tokens = {
  async verify(token: string) {
    if (token === teacherToken) return { id: '00000000-0000-4000-8000-000000000001', role: 'teacher' };
    if (token === studentToken) return { id: '00000000-0000-4000-8000-000000000002', role: 'student' };
    throw unauthorized();
  },
} as unknown as TokenService;

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function appWithPolicies(): FastifyInstance {
  app = Fastify();
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) =>
    reply.code(error.statusCode ?? 500).send({ message: error.message }),
  );
  enforceRoutePolicies(app, tokens);
  return app;
}

/** Registers a feature plugin as buildApp() does and starts the app. */
async function start(app: FastifyInstance, feature: (instance: FastifyInstance) => void) {
  await app.register(async (instance) => feature(instance));
  await app.ready();
}

const teacherRoute: RoutePolicy = { caller: 'teacher', touches: ['own-quizzes'] };

describe('starting the app', () => {
  it('refuses an /api route that declares no policy, naming it', async () => {
    const app = appWithPolicies();
    await expect(
      start(app, (feature) => {
        feature.get('/api/new-feature', async () => 'ok');
      }),
    ).rejects.toThrow('GET /api/new-feature declares no policy');
  });

  it('lets routes outside /api (the built client) go without one', async () => {
    const app = appWithPolicies();
    app.get('/assets/app.js', async () => 'ok');
    await app.ready();
    expect(declaredRoutes(app)).toContainEqual({
      method: 'GET',
      url: '/assets/app.js',
      policy: undefined,
      isThrottled: false,
    });
  });

  it('refuses a route that brings its own token check instead of declaring its caller', async () => {
    const app = appWithPolicies();
    await expect(
      start(app, (feature) => {
        feature.get(
          '/api/own-check',
          { onRequest: requireRole(tokens, 'teacher'), config: { policy: teacherRoute } },
          async () => 'ok',
        );
      }),
    ).rejects.toThrow('declare who may call it in config.policy');
  });

  it('refuses a policy whose callers cannot have what it touches', async () => {
    const app = appWithPolicies();
    await expect(
      start(app, (feature) => {
        feature.get(
          '/api/odd',
          { config: { policy: { caller: 'student', touches: ['own-uploads'] } } },
          async () => 'ok',
        );
      }),
    ).rejects.toThrow('a "student" caller cannot touch "own-uploads"');
  });

  it('refuses a caller wider than what the route touches (a teacher route opened to every session)', async () => {
    const app = appWithPolicies();
    await expect(
      start(app, (feature) => {
        feature.get(
          '/api/odd',
          { config: { policy: { caller: 'signed-in', touches: ['own-uploads'] } } },
          async () => 'ok',
        );
      }),
    ).rejects.toThrow('a "signed-in" caller lets in student callers, who can touch none of own-uploads');
  });

  it('records every route with its policy, the HEAD twin of a GET included', async () => {
    const app = appWithPolicies();
    app.get('/api/thing', { config: { policy: teacherRoute } }, async () => 'ok');
    await app.ready();
    expect(declaredRoutes(app)).toEqual([
      { method: 'GET', url: '/api/thing', policy: teacherRoute, isThrottled: false },
      { method: 'HEAD', url: '/api/thing', policy: teacherRoute, isThrottled: false },
    ]);
  });
});

describe('the token check derived from the caller', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('teacher: 401 without a token, 403 for a student, the handler for a teacher (GET and HEAD)', async () => {
    const app = appWithPolicies();
    app.get('/api/thing', { config: { policy: teacherRoute } }, async (request) => ({ user: request.user }));
    for (const method of ['GET', 'HEAD'] as const) {
      expect((await app.inject({ method, url: '/api/thing' })).statusCode).toBe(401);
      expect((await app.inject({ method, url: '/api/thing', headers: bearer(studentToken) })).statusCode).toBe(403);
      expect((await app.inject({ method, url: '/api/thing', headers: bearer(teacherToken) })).statusCode).toBe(200);
    }
  });

  it('signed-in: either role; anyone: no token needed and none read', async () => {
    const app = appWithPolicies();
    app.get('/api/mine', { config: { policy: { caller: 'signed-in', touches: ['own-tasks'] } } }, async () => 'ok');
    app.get('/api/open', { config: { policy: { caller: 'anyone', touches: ['nothing'] } } }, async (request) => ({
      user: request.user ?? null,
    }));
    expect((await app.inject({ url: '/api/mine' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/mine', headers: bearer(studentToken) })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/mine', headers: bearer(teacherToken) })).statusCode).toBe(200);
    const open = await app.inject({ url: '/api/open', headers: bearer('not-a-token') });
    expect(open.json()).toEqual({ user: null });
  });

  it('runs before the body is read: an anonymous 1 MB body is refused 401, not parsed', async () => {
    const app = appWithPolicies();
    let wasParsed = false;
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      wasParsed = true;
      done(null, JSON.parse(String(body)));
    });
    app.post('/api/thing', { config: { policy: teacherRoute }, bodyLimit: 2 * 1024 * 1024 }, async () => 'ok');
    const response = await app.inject({
      method: 'POST',
      url: '/api/thing',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ text: 'x'.repeat(1024 * 1024) }),
    });
    expect(response.statusCode).toBe(401);
    expect(wasParsed).toBe(false);
  });

  it("runs before the route's own onRequest hooks, which can rely on the caller", async () => {
    const app = appWithPolicies();
    const seen: (string | undefined)[] = [];
    app.get(
      '/api/thing',
      { config: { policy: teacherRoute }, onRequest: async (request) => void seen.push(request.user?.role) },
      async () => 'ok',
    );
    expect((await app.inject({ url: '/api/thing' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/thing', headers: bearer(teacherToken) })).statusCode).toBe(200);
    expect(seen).toEqual(['teacher']);
  });

  it('file-link and meeting-token callers get no bearer check: their route checks its own credential', async () => {
    const app = appWithPolicies();
    app.get('/api/file', { config: { policy: { caller: 'file-link', touches: ['linked-file'] } } }, async () => 'ok');
    expect((await app.inject({ url: '/api/file' })).statusCode).toBe(200);
  });
});
