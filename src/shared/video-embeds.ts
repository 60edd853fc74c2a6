/**
 * Hosted videos play in the provider's own embed page, in an iframe: no
 * provider script ever runs in our origin (where it could read the session
 * token), so the Content-Security-Policy names these origins as frames only
 * (frame-src) and script-src stays 'self' (decision 018).
 */
export const VIDEO_EMBED_ORIGINS = [
  'https://www.youtube-nocookie.com',
  'https://player.vimeo.com',
  'https://fast.wistia.net',
] as const;

const YOUTUBE_ID = /^[\w-]{11}$/;
const YOUTUBE_LIST = /^[\w-]{2,64}$/;
const WISTIA_ID = /^[a-z0-9]{10}$/i;
const VIMEO_HASH = /^[\da-f]{6,20}$/i;

/**
 * The address to put in the player frame for a shared video link (one that
 * passed videoLinkSchema), or undefined when the link is not a single video
 * or playlist we know how to embed (then the page offers the link itself).
 */
export function videoEmbedAddress(link: string): string | undefined {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:') return undefined;
  const host = url.hostname.toLowerCase();
  const isOn = (domain: string) => host === domain || host.endsWith(`.${domain}`);
  const segments = url.pathname.split('/').filter(Boolean);
  if (isOn('youtube.com') || host === 'youtu.be') return youtubeEmbed(url, host, segments);
  if (isOn('vimeo.com')) return vimeoEmbed(url, segments);
  if (isOn('wistia.com') || isOn('wistia.net')) return wistiaEmbed(segments);
  return undefined;
}

function youtubeEmbed(url: URL, host: string, segments: string[]): string | undefined {
  const base = `${VIDEO_EMBED_ORIGINS[0]}/embed`;
  const [first, second] = segments;
  const videoId =
    host === 'youtu.be'
      ? first
      : first === 'watch'
        ? url.searchParams.get('v')
        : first && ['embed', 'shorts', 'live', 'v'].includes(first)
          ? second
          : undefined;
  const start = startSeconds(url.searchParams.get('t') ?? url.searchParams.get('start'));
  if (videoId && YOUTUBE_ID.test(videoId)) {
    return withQuery(`${base}/${videoId}`, { autoplay: '1', rel: '0', start: start?.toString() });
  }
  const list = url.searchParams.get('list');
  if (list && YOUTUBE_LIST.test(list)) return withQuery(`${base}/videoseries`, { list, autoplay: '1', rel: '0' });
  return undefined;
}

function vimeoEmbed(url: URL, segments: string[]): string | undefined {
  // vimeo.com/ID, vimeo.com/ID/HASH (unlisted), .../channels/x/ID, player.vimeo.com/video/ID?h=HASH
  const idIndex = segments.findLastIndex((segment) => /^\d{1,12}$/.test(segment));
  if (idIndex === -1) return undefined;
  const following = segments[idIndex + 1];
  const hash = following && VIMEO_HASH.test(following) ? following : url.searchParams.get('h');
  return withQuery(`${VIDEO_EMBED_ORIGINS[1]}/video/${segments[idIndex]}`, {
    autoplay: '1',
    h: hash && VIMEO_HASH.test(hash) ? hash : undefined,
  });
}

function wistiaEmbed(segments: string[]): string | undefined {
  // account.wistia.com/medias/ID, fast.wistia.net/embed/iframe/ID, fast.wistia.com/embed/medias/ID
  const idIndex = segments.findIndex((segment) => segment === 'medias' || segment === 'iframe') + 1;
  const id = idIndex > 0 ? segments[idIndex]?.replace(/\.jsonp$/, '') : undefined;
  if (!id || !WISTIA_ID.test(id)) return undefined;
  return withQuery(`${VIDEO_EMBED_ORIGINS[2]}/embed/iframe/${id}`, { autoPlay: 'true' });
}

/** YouTube's t=/start= as seconds: 90, 90s, 1m30s, 1h2m3s. */
function startSeconds(value: string | null): number | undefined {
  if (!value) return undefined;
  const match = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s?)?$/i.exec(value);
  if (!match) return undefined;
  const [, hours = '0', minutes = '0', seconds = '0'] = match;
  const total = Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
  return total > 0 ? total : undefined;
}

function withQuery(address: string, parameters: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parameters)) if (value !== undefined) query.set(name, value);
  return `${address}?${query.toString()}`;
}
