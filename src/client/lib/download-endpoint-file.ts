import type { EndpointSpec } from '#shared/contract/endpoint';
import { answerFacts, ApiError, resultOf, unexpectedAnswer, urlOf } from './api.ts';
import { downloadBlob } from './download-file.ts';
import { readSession } from './session.ts';

/** The file name a Content-Disposition header gives (its UTF-8 form first), or `fallback`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition ?? '')?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A broken encoding: the plain name below.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition ?? '')?.[1] ?? fallback;
}

/**
 * Downloads a file endpoint that needs the session (an export): fetched with the bearer token,
 * handed to the browser under the server's file name. A refusal comes back as the ApiError
 * every call gives, with the client's text for it.
 */
export async function downloadEndpointFile(
  endpoint: EndpointSpec,
  input: { params?: object; query?: object },
  fallbackName: string,
): Promise<void> {
  const token = readSession()?.token;
  let response: Response;
  try {
    response = await fetch(urlOf(endpoint, input), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError('UNREACHABLE', { status: 0, endpoint });
  }
  const answer = answerFacts(response.status, (name) => response.headers.get(name), endpoint);
  if (!response.ok) {
    const envelope: unknown = await response.json().catch(() => undefined);
    if (!envelope || typeof envelope !== 'object' || !('success' in envelope)) throw unexpectedAnswer(answer);
    resultOf(answer, envelope as never, token);
    throw unexpectedAnswer(answer);
  }
  downloadBlob(await response.blob(), fileNameOf(response.headers.get('content-disposition'), fallbackName));
}
