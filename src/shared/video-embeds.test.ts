import { describe, expect, it } from 'vitest';
import { VIDEO_LINK_PROVIDERS, videoLinkProvider } from './resources.ts';
import { VIDEO_EMBED_ORIGINS, videoEmbedAddress } from './video-embeds.ts';

describe('videoEmbedAddress', () => {
  it.each([
    [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0',
    ],
    [
      'https://youtu.be/dQw4w9WgXcQ?t=90',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0&start=90',
    ],
    [
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ&t=1m30s',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0&start=90',
    ],
    [
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0',
    ],
    [
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0',
    ],
    [
      'https://www.youtube.com/playlist?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG',
      'https://www.youtube-nocookie.com/embed/videoseries?list=PLx0sYbCqOb8TBPRdmBHs5Iftvv9TPboYG&autoplay=1&rel=0',
    ],
    ['https://vimeo.com/76979871', 'https://player.vimeo.com/video/76979871?autoplay=1'],
    ['https://vimeo.com/76979871/3f2a9c1d0e', 'https://player.vimeo.com/video/76979871?autoplay=1&h=3f2a9c1d0e'],
    ['https://vimeo.com/channels/staffpicks/76979871', 'https://player.vimeo.com/video/76979871?autoplay=1'],
    [
      'https://player.vimeo.com/video/76979871?h=3f2a9c1d0e',
      'https://player.vimeo.com/video/76979871?autoplay=1&h=3f2a9c1d0e',
    ],
    ['https://school.wistia.com/medias/e4a27b971d', 'https://fast.wistia.net/embed/iframe/e4a27b971d?autoPlay=true'],
    [
      'https://fast.wistia.net/embed/iframe/e4a27b971d',
      'https://fast.wistia.net/embed/iframe/e4a27b971d?autoPlay=true',
    ],
  ])('%s plays in %s', (link, embed) => {
    expect(videoLinkProvider(link)).toBeDefined();
    expect(videoEmbedAddress(link)).toBe(embed);
  });

  it.each([
    'https://www.youtube.com/@somechannel',
    'https://www.youtube.com/watch?v=short',
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ"><script>',
    'https://vimeo.com/event/12345x',
    'https://wistia.com/',
    'http://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'https://example.com/embed/dQw4w9WgXcQ',
    'not a link',
  ])('%s has no embed (the page links to it instead)', (link) => {
    expect(videoEmbedAddress(link)).toBeUndefined();
  });

  it('only ever points at the origins the CSP allows as frames', () => {
    const samples = [
      'https://youtu.be/dQw4w9WgXcQ',
      'https://vimeo.com/76979871',
      'https://a.wistia.com/medias/e4a27b971d',
    ];
    const origins = samples.map((link) => new URL(videoEmbedAddress(link)!).origin);
    expect(new Set(origins)).toEqual(new Set(VIDEO_EMBED_ORIGINS));
    expect(VIDEO_EMBED_ORIGINS).toHaveLength(VIDEO_LINK_PROVIDERS.length);
  });
});
