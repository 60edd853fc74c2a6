import { isIP } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { VIDEO_EMBED_ORIGINS } from '#shared/video-embeds';

/**
 * The Content-Security-Policy of every response (decision 018 says why each
 * directive is what it is). Only our origin may run script, style, load
 * pictures, media, fonts or open connections ('self' also covers ws:/wss: to
 * this host in CSP 3, which the meeting socket needs); the frames we embed are the
 * hosted-video players and our own PDFs (a hand-in read in the grading view, whose
 * answer alone allows our pages to frame it: send-file.ts); nobody else may frame us.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "media-src 'self'",
  "connect-src 'self'",
  `frame-src 'self' ${VIDEO_EMBED_ORIGINS.join(' ')}`,
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Camera, microphone and screen sharing (meetings) for our origin only, so no
 * embedded frame can ask for them; powerful features the product never uses
 * are off for everyone (only names Chromium knows: it warns about others, and
 * the e2e suite fails on that warning; 'bluetooth' is one it does not know). Fullscreen, autoplay and picture-in-picture keep their
 * default ('self', delegated only where our own iframe's `allow` says so: the
 * video players).
 */
export const PERMISSIONS_POLICY = [
  'camera=(self)',
  'microphone=(self)',
  'display-capture=(self)',
  'accelerometer=()',
  'browsing-topics=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/** One year; no includeSubDomains or preload: other hosts of a school's domain are not ours to pin. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000';

const BASELINE_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'permissions-policy': PERMISSIONS_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Our addresses can carry signed file access values (and a PDF opened from one can link out).
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
} as const;

/**
 * Sets the security headers on every response: API answers, the SPA shell,
 * static files, errors and 404s. (Answers given before routing, to a malformed
 * address, run no hook: app.ts's frameworkErrors calls applySecurityHeaders.)
 */
export function addSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply) => applySecurityHeaders(request, reply));
}

/** A route that set its own CSP keeps it (the uploaded-file route sandboxes what it serves). HSTS only on HTTPS. */
export function applySecurityHeaders(request: FastifyRequest, reply: FastifyReply) {
  for (const [name, value] of Object.entries(BASELINE_HEADERS)) {
    if (!reply.hasHeader(name)) reply.header(name, value);
  }
  if (isSecureRequest(request)) reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
}

/**
 * HTTPS as Fastify sees it: a TLS socket, or X-Forwarded-Proto from a proxy we
 * trust (TRUST_PROXY; untrusted, the header is ignored). Never for localhost or
 * a bare IP address: browsers ignore HSTS there, and a pinned localhost would
 * break every other development server on the machine.
 */
export function isSecureRequest(request: FastifyRequest): boolean {
  if (request.protocol !== 'https') return false;
  const hostname = request.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!hostname || isIP(hostname)) return false;
  return hostname !== 'localhost' && !hostname.endsWith('.localhost');
}
