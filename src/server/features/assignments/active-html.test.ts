import { describe, expect, it } from 'vitest';
import { activeHtmlIn } from './active-html.ts';

describe('Markdown with a script is found, code about scripts is not (decision 060 addendum)', () => {
  it.each([
    ['a script', 'Read <script>alert(1)</script> now', '<script>'],
    ['a script block', '<script>\nalert(1)\n</script>', '<script>\nalert(1)\n</script>'],
    [
      'upper case, in a list',
      '- one\n- <SCRIPT SRC=//x.example/a.js></SCRIPT>',
      '<SCRIPT SRC=//x.example/a.js></SCRIPT>',
    ],
    ['a frame', 'See <iframe src="https://x.example"></iframe>', '<iframe src="https://x.example">'],
    ['an event handler', 'Look <img src=x onerror="alert(1)">', '<img src=x onerror="alert(1)">'],
    ['in a table cell', '| a | b |\n|---|---|\n| <embed src=x> | 2 |', '<embed src=x>'],
    ['in a quote', '> <object data=x></object>', '<object data=x>'],
  ])('%s', (_, markdown, found) => {
    expect(activeHtmlIn(markdown)).toBe(found);
  });

  it.each([
    ['plain text', 'Read chapter 3 and answer questions 1 to 4.'],
    ['a code span', 'Never paste `<script>alert(1)</script>` into a page.'],
    ['a fenced block', '```html\n<script src="app.js"></script>\n<button onclick="go()">Go</button>\n```'],
    ['an indented block', 'Example:\n\n    <iframe src="x"></iframe>'],
    ['harmless HTML', 'x <b>bold</b> <br> <img src="a.png" alt="a">'],
    ['comparisons', 'if a < b and b > c, or 3<script'],
    ['a word with on in it', '<span data-one="1">x</span>'],
  ])('%s is kept', (_, markdown) => {
    expect(activeHtmlIn(markdown)).toBeUndefined();
  });
});
