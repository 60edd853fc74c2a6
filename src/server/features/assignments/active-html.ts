import { Lexer, marked, type Token } from 'marked';
import { badRequest, fieldProblem } from '../../errors.ts';

/**
 * Markdown that carries a script (issue 33 point 6, decision 060's addendum): raw HTML tags that
 * would run or embed something in an HTML renderer are refused with a 400 rather than stored,
 * so a teacher learns at once that the text will not do what it seems to, and no other reader
 * of the stored text (an export, an API user's renderer) meets a live script. Our own renderer
 * shows raw HTML as typed either way. Read with marked's lexer, the client's own tokenizer, so a
 * `<script>` inside a code span or block (a computing lesson's example) is code and is kept.
 */
const ACTIVE_TAG = /<\s*\/?\s*(script|iframe|object|embed|frame|frameset|applet|base|meta|link|style)\b/i;
/** An event handler attribute inside a tag (`<img src=x onerror=…>`, `<a onclick=…>`). */
const EVENT_ATTRIBUTE = /<[a-z][^>]*\s(on[a-z]+)\s*=/i;

/** The first raw HTML token that would run or embed something, or undefined. */
export function activeHtmlIn(markdown: string): string | undefined {
  if (!markdown.includes('<')) return undefined;
  const tokens = new Lexer({ gfm: true, breaks: true }).lex(markdown);
  let found: string | undefined;
  // Without async extensions the walk is synchronous; its list of promises is empty.
  void marked.walkTokens(tokens, (token: Token) => {
    if (found === undefined && token.type === 'html' && (ACTIVE_TAG.test(token.raw) || EVENT_ATTRIBUTE.test(token.raw)))
      found = token.raw.trim().slice(0, 80);
  });
  return found;
}

/** Refuses instructions with a script, a frame or an event handler in raw HTML (400, SCRIPT_IN_TEXT). */
export function refuseActiveHtml(field: string, markdown: string): void {
  const tag = activeHtmlIn(markdown);
  if (tag === undefined) return;
  const message = 'Scripts, frames and event handlers are not allowed in the text; put code in a code block';
  throw badRequest(`${field}: ${message}`, fieldProblem(field, 'SCRIPT_IN_TEXT', message, { tag }));
}
