import { Lexer, type Token, type Tokens } from 'marked';
import { createElement, type ReactNode } from 'react';

/**
 * The Markdown renderer (decision 060): one chunk, with `marked`, that MarkdownText loads with
 * import() when it has text to show. marked only TOKENIZES here; its HTML renderer is never
 * used. Every token becomes a React element from the short list below, and every piece of the
 * author's text reaches the page as React text, which React escapes: no HTML string of the
 * author's is ever parsed by the browser, so there is nothing for a sanitizer to miss.
 *
 * - Raw HTML (`<script>`, `<img onerror>`, comments) shows as the characters typed.
 * - Links: only absolute http:, https: and mailto: URLs; they open outside the app (new tab,
 *   rel="noopener noreferrer nofollow"). Any other URL (javascript:, data:, relative, vbscript:)
 *   leaves the link's text, unlinked.
 * - Images are not shown (a teacher's image URL would be a request from every student's browser
 *   to any host): an image becomes a link to its URL with its alt text, under the same rule.
 * - Headings start at `topHeadingLevel` (the page has its own h1 and h2), capped at h6.
 */
export type MarkdownOptions = { topHeadingLevel?: 1 | 2 | 3 | 4 | 5 | 6 };

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:']);

/** The URL a link may point to, normalised, or null when it must not be a link. */
export function safeLinkHref(href: string): string | null {
  let url: URL;
  try {
    url = new URL(href.trim());
  } catch {
    return null; // relative or malformed: nothing inside the app is linked from a teacher's text
  }
  return LINK_SCHEMES.has(url.protocol) ? url.href : null;
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/**
 * marked leaves character references in the text for an HTML renderer to decode; React text
 * would show `&amp;` as typed. The common named ones and numeric ones are decoded (as text).
 */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[\da-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff)
        ? String.fromCodePoint(code)
        : '\ufffd';
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

export function renderMarkdown(source: string, { topHeadingLevel = 3 }: MarkdownOptions = {}): ReactNode {
  const tokens = new Lexer({ gfm: true, breaks: true }).lex(source);

  const inline = (children: Token[] | undefined, fallback: string): ReactNode =>
    children ? children.map(renderToken) : decodeEntities(fallback);

  function renderToken(token: Token, index: number): ReactNode {
    const key = index;
    switch (token.type) {
      case 'space':
      case 'def':
        return null;
      case 'heading': {
        const { depth, tokens: children, text } = token as Tokens.Heading;
        const level = Math.min(6, topHeadingLevel + depth - 1);
        return createElement(`h${level}`, { key }, inline(children, text));
      }
      case 'paragraph': {
        const { tokens: children, text } = token as Tokens.Paragraph;
        return <p key={key}>{inline(children, text)}</p>;
      }
      case 'blockquote':
        return <blockquote key={key}>{(token as Tokens.Blockquote).tokens.map(renderToken)}</blockquote>;
      case 'list': {
        const list = token as Tokens.List;
        const items = list.items.map((item, itemIndex) => <li key={itemIndex}>{item.tokens.map(renderToken)}</li>);
        return list.ordered ? (
          <ol key={key} start={typeof list.start === 'number' && list.start !== 1 ? list.start : undefined}>
            {items}
          </ol>
        ) : (
          <ul key={key}>{items}</ul>
        );
      }
      case 'checkbox':
        return (token as Tokens.Checkbox).checked ? '☑ ' : '☐ ';
      case 'code':
        return (
          <pre key={key} dir="ltr">
            <code>{(token as Tokens.Code).text}</code>
          </pre>
        );
      case 'codespan':
        // marked keeps a code span's text as typed; only its own HTML renderer escapes it.
        return <code key={key}>{(token as Tokens.Codespan).text}</code>;
      case 'hr':
        return <hr key={key} />;
      case 'br':
        return <br key={key} />;
      case 'strong': {
        const { tokens: children, text } = token as Tokens.Strong;
        return <strong key={key}>{inline(children, text)}</strong>;
      }
      case 'em': {
        const { tokens: children, text } = token as Tokens.Em;
        return <em key={key}>{inline(children, text)}</em>;
      }
      case 'del': {
        const { tokens: children, text } = token as Tokens.Del;
        return <del key={key}>{inline(children, text)}</del>;
      }
      case 'link': {
        const { href, title, tokens: children, text } = token as Tokens.Link;
        return renderLink(key, href, title, inline(children, text));
      }
      case 'image': {
        const { href, title, text } = token as Tokens.Image;
        return renderLink(key, href, title, decodeEntities(text || href));
      }
      case 'table': {
        const table = token as Tokens.Table;
        const align = (value: Tokens.TableCell['align']) =>
          value === 'center' ? 'text-center' : value === 'right' ? 'text-end' : undefined;
        return (
          <div key={key} className="overflow-x-auto">
            <table>
              <thead>
                <tr>
                  {table.header.map((cell, cellIndex) => (
                    <th key={cellIndex} className={align(cell.align)}>
                      {inline(cell.tokens, cell.text)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row, rowIndex) => (
                  <tr key={rowIndex}>
                    {row.map((cell, cellIndex) => (
                      <td key={cellIndex} className={align(cell.align)}>
                        {inline(cell.tokens, cell.text)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        );
      }
      case 'html': {
        // Raw HTML is never HTML: it shows as typed, as React text.
        const { raw, block } = token as Tokens.HTML;
        return block ? (
          <p key={key} className="whitespace-pre-wrap">
            {raw.trimEnd()}
          </p>
        ) : (
          raw
        );
      }
      case 'escape':
        return (token as Tokens.Escape).text;
      case 'text': {
        const { tokens: children, text } = token as Tokens.Text;
        return children ? <span key={key}>{children.map(renderToken)}</span> : decodeEntities(text);
      }
      default: {
        // A token type of a later marked: its text, as text.
        const unknown = token as { tokens?: Token[]; text?: string; raw: string };
        return unknown.tokens ? (
          <span key={key}>{unknown.tokens.map(renderToken)}</span>
        ) : (
          decodeEntities(unknown.text ?? unknown.raw)
        );
      }
    }
  }

  return tokens.map(renderToken);
}

function renderLink(key: number, href: string, title: string | null | undefined, children: ReactNode): ReactNode {
  const safeHref = safeLinkHref(href);
  if (!safeHref) return <span key={key}>{children}</span>;
  return (
    <a key={key} href={safeHref} title={title ?? undefined} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  );
}
