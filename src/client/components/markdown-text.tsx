import { useMemo } from 'react';
import { cn } from '../lib/cn.ts';
import { lazyModule, useLazyModule } from '../lib/lazy-module.ts';
import type { MarkdownOptions } from './markdown-render.tsx';

/** The renderer's chunk (marked and the token walk), loaded when a first text is shown. */
const renderer = lazyModule(() => import('./markdown-render.tsx').then((module) => module.renderMarkdown));

/**
 * The look of rendered Markdown, without a typography plugin: spacing between blocks, list
 * markers, quotes and code. Logical properties only, so it mirrors in right-to-left pages.
 */
const MARKDOWN_CLASSES = cn(
  'space-y-3 break-words text-fg',
  '[&_h3]:text-lg [&_h3]:font-semibold [&_h4]:font-semibold [&_h5]:font-semibold [&_h6]:font-semibold',
  '[&_li]:my-1 [&_ol]:list-decimal [&_ol]:ps-6 [&_ul]:list-disc [&_ul]:ps-6',
  '[&_blockquote]:border-s-4 [&_blockquote]:border-line-strong [&_blockquote]:ps-3 [&_blockquote]:text-muted',
  '[&_code]:rounded [&_code]:bg-surface-muted [&_code]:px-1 [&_code]:font-mono [&_code]:text-sm',
  '[&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-surface-muted [&_pre]:p-3 [&_pre_code]:p-0',
  '[&_a]:text-brand-700 [&_a]:underline [&_hr]:border-line-strong',
  '[&_td]:border [&_td]:border-line-strong [&_td]:px-2 [&_th]:border [&_th]:border-line-strong [&_th]:px-2',
);

/**
 * A teacher's Markdown (assignment instructions, issue 33), rendered safely (decision 060):
 * headings, emphasis, lists, links, code, quotes and line breaks; raw HTML shows as typed, links
 * go only to http(s) and mailto URLs and open outside the app, images are not loaded. The
 * renderer (marked) is a chunk of its own, downloaded when the first text is shown; until then,
 * or if it fails to load, the text shows as typed, with its line breaks.
 */
export function MarkdownText({
  source,
  className,
  topHeadingLevel,
}: { source: string; className?: string } & MarkdownOptions) {
  const render = useLazyModule(renderer, source.trim() !== '');

  const rendered = useMemo(
    () => (render ? render(source, topHeadingLevel ? { topHeadingLevel } : {}) : null),
    [render, source, topHeadingLevel],
  );

  return (
    <div
      dir="auto"
      data-markdown={render ? 'rendered' : 'source'}
      className={cn(MARKDOWN_CLASSES, !render && 'whitespace-pre-wrap', className)}
    >
      {render ? rendered : source}
    </div>
  );
}
