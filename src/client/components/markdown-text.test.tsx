import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderTranslated } from '../testing/render-translated.tsx';
import { MarkdownText } from './markdown-text.tsx';

/** Renders the source and waits for the renderer's chunk: the container's markdown root. */
async function rendered(source: string, options: { topHeadingLevel?: 1 | 2 | 3 | 4 | 5 | 6 } = {}) {
  const { container } = renderTranslated(<MarkdownText source={source} {...options} />);
  const root = container.querySelector<HTMLElement>('[data-markdown]')!;
  await waitFor(() => expect(root).toHaveAttribute('data-markdown', 'rendered'));
  return root;
}

/** No element, attribute or URL in the output that could run script. */
function expectHarmless(root: HTMLElement) {
  expect(root.querySelectorAll('script, img, iframe, object, embed, style, svg, form, input')).toHaveLength(0);
  for (const element of Array.from(root.querySelectorAll('*'))) {
    for (const attribute of Array.from(element.attributes)) {
      expect(attribute.name).not.toMatch(/^on/i);
      expect(attribute.name).not.toBe('style');
      expect(attribute.value).not.toMatch(/^\s*(javascript|data|vbscript):/i);
    }
  }
  for (const link of Array.from(root.querySelectorAll('a'))) {
    expect(new URL(link.getAttribute('href')!).protocol).toMatch(/^(https?|mailto):$/);
  }
}

describe('MarkdownText', () => {
  it('renders headings, emphasis, lists, code, quotes and line breaks', async () => {
    const root = await rendered(
      [
        '# Task',
        '',
        'Read **chapter 2** and *take notes*,',
        'then `run()` it.',
        '',
        '- one',
        '- two',
        '',
        '3. third',
        '4. fourth',
        '',
        '> quoted',
        '',
        '```',
        'code <b>block</b>',
        '```',
      ].join('\n'),
    );
    // The page has its own h1 and h2: the text's first level is h3.
    expect(root.querySelector('h3')).toHaveTextContent('Task');
    expect(root.querySelector('h1, h2')).toBeNull();
    expect(root.querySelector('strong')).toHaveTextContent('chapter 2');
    expect(root.querySelector('em')).toHaveTextContent('take notes');
    expect(root.querySelector('p br')).not.toBeNull();
    expect(root.querySelector('p code')).toHaveTextContent('run()');
    expect(root.querySelectorAll('ul > li')).toHaveLength(2);
    expect(root.querySelector('ol')).toHaveAttribute('start', '3');
    expect(root.querySelector('blockquote')).toHaveTextContent('quoted');
    expect(root.querySelector('pre code')).toHaveTextContent('code <b>block</b>');
    expect(root.querySelector('pre b')).toBeNull();
    expectHarmless(root);
  });

  it('takes its first heading level from topHeadingLevel', async () => {
    const root = await rendered('# One\n\n## Two\n\n###### Six', { topHeadingLevel: 2 });
    expect(root.querySelector('h2')).toHaveTextContent('One');
    expect(root.querySelector('h3')).toHaveTextContent('Two');
    expect(root.querySelector('h6')).toHaveTextContent('Six'); // capped at h6
  });

  it('shows a script as the characters typed, never as an element', async () => {
    const root = await rendered('<script>alert(1)</script>\n\nText <script>alert(2)</script> inline');
    expect(root.querySelector('script')).toBeNull();
    expect(root.textContent).toContain('<script>alert(1)</script>');
    expect(root.textContent).toContain('Text <script>alert(2)</script> inline');
    expectHarmless(root);
  });

  it('shows an image with an onerror handler as text', async () => {
    const root = await rendered('<img src=x onerror=alert(1)>\n\nand <img src="x" onerror="alert(2)"> too');
    expect(root.querySelector('img')).toBeNull();
    expect(root.textContent).toContain('<img src=x onerror=alert(1)>');
    expectHarmless(root);
  });

  it('keeps other raw HTML as text: iframes, styles, event attributes, comments', async () => {
    const root = await rendered(
      '<iframe src="https://evil.example"></iframe>\n\n<a href="javascript:alert(1)">x</a> <b onclick="alert(1)">b</b> <!-- c --> <svg onload=alert(1)>',
    );
    expect(root.querySelector('iframe, svg, b')).toBeNull();
    expect(root.querySelector('a')).toBeNull();
    expectHarmless(root);
  });

  it('refuses javascript:, data:, vbscript: and relative links, keeping their text', async () => {
    const root = await rendered(
      [
        '[one](javascript:alert(1))',
        '[two](JaVaScRiPt:alert(1))',
        '[three](  javascript:alert(1))',
        '[four](java&#115;cript:alert(1))',
        '[five](data:text/html,<script>alert(1)</script>)',
        '[six](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
        '[seven](vbscript:msgbox)',
        '[eight](/dashboard/admin)',
        '[nine](<javascript:alert(1)>)',
      ].join('\n\n'),
    );
    expect(root.querySelectorAll('a')).toHaveLength(0);
    for (const text of ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']) {
      expect(root.textContent).toContain(text);
    }
    expectHarmless(root);
  });

  it('opens http, https and mailto links outside the app, without the opener or a referrer', async () => {
    const root = await rendered(
      '[Read](https://example.org/a?b=1 "The reading") and [mail](mailto:teacher@example.org) and [plain](http://example.org)',
    );
    const links = Array.from(root.querySelectorAll('a'));
    expect(links.map((link) => link.getAttribute('href'))).toEqual([
      'https://example.org/a?b=1',
      'mailto:teacher@example.org',
      'http://example.org/',
    ]);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    }
    expect(links[0]).toHaveAttribute('title', 'The reading');
    expect(screen.getByRole('link', { name: 'Read' })).toBeInTheDocument();
  });

  it('keeps HTML in a link title as the title text', async () => {
    const root = await rendered('[x](https://example.org "<img src=x onerror=alert(1)>\\"><script>alert(1)</script>")');
    const link = root.querySelector('a')!;
    expect(link.getAttribute('title')).toContain('<img src=x onerror=alert(1)>');
    expect(link.children).toHaveLength(0);
    expect(link.textContent).toBe('x');
    expectHarmless(root);
  });

  it('links autolinks only with a safe scheme', async () => {
    const root = await rendered(
      '<https://example.org/auto> www.example.com <javascript:alert(1)> <data:text/html,x> <teacher@example.org>',
    );
    const hrefs = Array.from(root.querySelectorAll('a')).map((link) => link.getAttribute('href'));
    expect(hrefs).toEqual(['https://example.org/auto', 'http://www.example.com/', 'mailto:teacher@example.org']);
    expect(root.textContent).toContain('javascript:alert(1)');
    expectHarmless(root);
  });

  it('does not load images: an image is a link to its URL, under the same rule', async () => {
    const root = await rendered('![A diagram](https://example.org/d.png) ![bad](javascript:alert(1))');
    expect(root.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'A diagram' })).toHaveAttribute('href', 'https://example.org/d.png');
    expect(root.textContent).toContain('bad');
    expectHarmless(root);
  });

  it('decodes character references as text, never as markup', async () => {
    const root = await rendered('Tom &amp; Jerry &lt;b&gt;not bold&lt;/b&gt; &#60;script&#62; &#x3C;i&#x3E;');
    expect(root.textContent).toBe('Tom & Jerry <b>not bold</b> <script> <i>');
    expect(root.querySelector('b, i, script')).toBeNull();
  });

  it('shows the source as typed until the renderer has loaded, and text in either direction', () => {
    const { container } = renderTranslated(<MarkdownText source={'**هذا** نص'} />);
    const root = container.querySelector('[data-markdown]')!;
    expect(root).toHaveAttribute('dir', 'auto');
    if (root.getAttribute('data-markdown') === 'source') expect(root.textContent).toBe('**هذا** نص');
  });

  it('renders a long document (20,000 characters)', async () => {
    const block = '## Part\n\nSome **bold** and *em* text with a [link](https://example.org).\n\n- a\n- b\n\n';
    const source = block.repeat(Math.ceil(20_000 / block.length)).slice(0, 20_000);
    const root = await rendered(source);
    expect(root.querySelectorAll('h4').length).toBeGreaterThan(200);
    expectHarmless(root);
  });
});
