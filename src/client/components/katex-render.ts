import katex from 'katex';
import 'katex/dist/katex.min.css';

/**
 * KaTeX, its stylesheet and its fonts: one chunk that MathText loads with import() only when a
 * text on screen holds math (decision 036; scripts/check-bundle.mjs lists it as loaded on content).
 *
 * `katex.render` builds DOM nodes and sets their styles through the CSSOM, which the
 * Content-Security-Policy (style-src 'self') allows; `renderToString` into innerHTML would put
 * style attributes in markup, which it refuses, and every fraction would lose its layout.
 * Invalid TeX is shown as typed (throwOnError: false), and the MathML copy is what screen
 * readers read.
 */
export function renderMath(tex: string, element: HTMLElement, display: boolean): void {
  katex.render(tex, element, {
    displayMode: display,
    output: 'htmlAndMathml',
    throwOnError: false,
    strict: 'ignore',
    // Nothing of the teacher's TeX may make links, classes, ids or styles of its own.
    trust: false,
    maxSize: 20,
    maxExpand: 200,
  });
}
