import path from 'node:path';
import { getConfig } from '@lingui/conf';
import { createCompiledCatalog, getCatalogs } from '@lingui/cli/api';
import MagicString from 'magic-string';
import ts from 'typescript';
import type { Plugin } from 'vite';

/**
 * Catalogs per route (decision 057, issue 32 point 1). Translators keep one PO file per locale;
 * the build ships, for each lazy route module of src/client/router.tsx and each locale, a small
 * chunk with only the messages that route's code can show, and a shell catalog for what renders
 * outside the routes. A screen then downloads the messages it can show, not the whole catalog.
 *
 * - Every client module's message ids are read after Lingui's macros ran (`transform`, order
 *   post): a macro leaves the id as a string literal (`{ id: "aB3xYz", … }`, `<Trans id="…">`),
 *   so every quoted string of the module that is an id of the catalog counts. A string that is an
 *   id by chance costs a message, never a missing one.
 * - router.tsx's `lazyRoute(() => import('./x.tsx'))` becomes `lazyRoute(() => import('./x.tsx'),
 *   { en: () => import(<x's catalog in en>), … })`: lib/lazy-route.ts loads the catalog of the
 *   locale being shown beside the module (lib/route-catalogs.ts).
 * - A route's catalog holds the ids of every module its code can run: its static imports and its
 *   import()s, transitively (what check-bundle counts and what loads on a user action), stopping
 *   at other route modules (each has its own catalog), less the shell's messages and those of the
 *   layout routes around it in router.tsx (loaded whenever it shows).
 * - The shell catalog (locales/shell-catalog.ts, which the build replaces) holds the ids of what
 *   the entries reach without going through a route module: the error screen's texts.
 * - The catalogs are virtual modules whose content is filled in `renderChunk`, once the module
 *   graph is complete and before the chunk's hash is computed (a changed translation is a new
 *   file name). The dev server and vitest do not run this plugin: they load the whole catalog.
 */

/** The virtual catalog modules: `${CATALOG_PREFIX}${locale}/${route module, relative to src/client}`. */
export const CATALOG_PREFIX = '\0route-catalog/';
/** The import specifier that resolves to one. */
const CATALOG_SPECIFIER = 'virtual:route-catalog/';
/** The shell catalog's name in place of a route module's path. */
export const SHELL_CATALOG = 'shell';
/** The module the build replaces with the shell catalog's loaders. */
const SHELL_MODULE = /[\\/]src[\\/]client[\\/]locales[\\/]shell-catalog\.ts$/;
/** A screen, as router.tsx writes it. */
const LAZY_ROUTE = /lazyRoute\(\s*\(\)\s*=>\s*import\(\s*(['"])([^'"]+)\1\s*\)\s*\)/g;
/** Where the compiled messages go in a catalog chunk. */
const PLACEHOLDER = '__ROUTE_CATALOG_MESSAGES__';
/** Quoted strings that may be message ids (Lingui's are 6 characters of base64). */
const QUOTED = /["'`]([^"'`\\\s]{1,80})["'`]/g;

/** The message ids of `ids` that `code` names as quoted strings. */
export function messageIdsIn(code: string, ids: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  for (const [, text] of code.matchAll(QUOTED)) if (ids.has(text!)) found.add(text!);
  return found;
}

/** The catalog chunk's facade module, parsed: its locale and route (relative to src/client, or 'shell'). */
export function parseCatalogId(id: string): { locale: string; route: string } | null {
  if (!id.startsWith(CATALOG_PREFIX)) return null;
  const [locale, ...route] = id.slice(CATALOG_PREFIX.length).split('/');
  return { locale: locale!, route: route.join('/') };
}

/** Each locale's translations: message id -> the message in that locale (the source's when missing). */
async function readTranslations(): Promise<{
  pseudoLocale: string | undefined;
  byLocale: Map<string, Record<string, string>>;
}> {
  const config = getConfig();
  const [catalog] = await getCatalogs(config);
  if (!catalog) throw new Error('route-catalogs: lingui.config has no catalog');
  const byLocale = new Map<string, Record<string, string>>();
  for (const locale of config.locales) {
    const { messages } = await catalog.getTranslations(locale, {
      fallbackLocales: config.fallbackLocales!,
      sourceLocale: config.sourceLocale!,
    });
    byLocale.set(locale, messages);
  }
  return { pseudoLocale: config.pseudoLocale, byLocale };
}

/** Every message id of the catalogs (scripts/check-bundle.mjs looks for them in the built chunks). */
export async function readMessageIds(): Promise<Set<string>> {
  const { byLocale } = await readTranslations();
  return new Set([...byLocale.values()].flatMap((messages) => Object.keys(messages)));
}

/** `ids`' messages of `locale`, compiled as @lingui/vite-plugin compiles a whole catalog. */
function compileSubset(
  locale: string,
  translations: Record<string, string>,
  ids: Iterable<string>,
  pseudoLocale: string | undefined,
): unknown {
  const subset: Record<string, string> = {};
  for (const id of ids) if (id in translations) subset[id] = translations[id]!;
  const { source, errors } = createCompiledCatalog(locale, subset, { namespace: 'json', pseudoLocale });
  if (errors.length > 0) {
    throw new Error(`route-catalogs: ${locale} messages do not compile: ${errors.map(({ id }) => id).join(', ')}`);
  }
  return (JSON.parse(source) as { messages: unknown }).messages;
}

const loadersSource = (locales: readonly string[], route: string) =>
  `{ ${locales.map((locale) => `${JSON.stringify(locale)}: () => import(${JSON.stringify(`${CATALOG_SPECIFIER}${locale}/${route}`)})`).join(', ')} }`;

type ModuleInfoGetter = (
  id: string,
) => { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[]; isEntry: boolean } | null;

/** Two plugins: one before every other transform (router.tsx's calls), one after (the ids). */
export function routeCatalogs(): Plugin[] {
  let clientRoot = '';
  let locales: string[] = [];
  let translations: Awaited<ReturnType<typeof readTranslations>>;
  let allIds = new Set<string>();
  /** Module id -> the message ids its code names. */
  const idsByModule = new Map<string, Set<string>>();
  /** Route module ids (absolute) -> their path relative to src/client. */
  const routeModules = new Map<string, string>();
  /** Route module id -> the route modules around it on every path of router.tsx it appears at. */
  const ancestorsOf = new Map<string, Set<string>>();
  /** Catalog (route relative path, or 'shell') -> the message ids it holds, computed once per build. */
  const idsByCatalog = new Map<string, Set<string>>();
  /** The module graph's edges, read once from the bundler (each getModuleInfo crosses into Rust). */
  const moduleInfos = new Map<string, ReturnType<ModuleInfoGetter>>();

  const relative = (id: string) => path.relative(clientRoot, id).split(path.sep).join('/');
  const isStop = (id: string) => routeModules.has(id) || id.startsWith(CATALOG_PREFIX);

  /** The message ids of the modules reachable from `starts` (static and dynamic imports), stopping at route and catalog modules. */
  function reachableIds(starts: string[], getInfo: ModuleInfoGetter): Set<string> {
    const ids = new Set<string>();
    const seen = new Set<string>();
    const pending = [...starts];
    while (pending.length > 0) {
      const id = pending.pop()!;
      if (seen.has(id)) continue;
      seen.add(id);
      for (const messageId of idsByModule.get(id) ?? []) ids.add(messageId);
      const info = getInfo(id);
      if (!info) continue;
      for (const next of [...info.importedIds, ...info.dynamicallyImportedIds]) if (!isStop(next)) pending.push(next);
    }
    return ids;
  }

  /** All the message ids of a route module's code (with the shell's), before taking out what its ancestors load. */
  const closureIds = new Map<string, Set<string>>();
  function routeClosureIds(routeId: string, getInfo: ModuleInfoGetter): Set<string> {
    if (!closureIds.has(routeId)) closureIds.set(routeId, reachableIds([routeId], getInfo));
    return closureIds.get(routeId)!;
  }

  /**
   * A catalog's ids: the shell's, or a route's less the shell's and less its ancestors' (the layout
   * routes around it in router.tsx, on every path it appears at: React Router loads them whenever
   * it shows, so their catalogs are loaded too).
   */
  function catalogIds(route: string, getInfo: ModuleInfoGetter, moduleIds: Iterable<string>): Set<string> {
    if (!idsByCatalog.has(SHELL_CATALOG)) {
      const entries = [...moduleIds].filter((id) => getInfo(id)?.isEntry);
      idsByCatalog.set(SHELL_CATALOG, reachableIds(entries, getInfo));
    }
    if (!idsByCatalog.has(route)) {
      const routeId = [...routeModules].find(([, name]) => name === route)?.[0];
      if (!routeId) throw new Error(`route-catalogs: no route module ${route}`);
      const loaded = new Set(idsByCatalog.get(SHELL_CATALOG));
      for (const ancestor of ancestorsOf.get(routeId) ?? []) {
        for (const id of routeClosureIds(ancestor, getInfo)) loaded.add(id);
      }
      idsByCatalog.set(route, new Set([...routeClosureIds(routeId, getInfo)].filter((id) => !loaded.has(id))));
    }
    return idsByCatalog.get(route)!;
  }

  /** Records, for each route module of router.tsx, the route modules around it on every path it is at. */
  function recordAncestors(code: string, resolvedOf: Map<string, string>): void {
    const source = ts.createSourceFile('router.tsx', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
    const routeOf = (node: ts.Node) => {
      const text = node.getText(source);
      const specifier = /import\(\s*(['"])([^'"]+)\1/.exec(text)?.[2];
      return specifier ? resolvedOf.get(specifier) : undefined;
    };
    const visit = (node: ts.Node, ancestors: string[]) => {
      if (ts.isObjectLiteralExpression(node)) {
        const property = (name: string) =>
          node.properties.find(
            (candidate): candidate is ts.PropertyAssignment =>
              ts.isPropertyAssignment(candidate) && candidate.name.getText(source) === name,
          );
        const lazy = property('lazy');
        const route = lazy ? routeOf(lazy.initializer) : undefined;
        if (route) {
          const known = ancestorsOf.get(route);
          // On several paths (the whiteboard under both dashboards): only the ancestors of all of them.
          ancestorsOf.set(route, known ? new Set(ancestors.filter((id) => known.has(id))) : new Set(ancestors));
          const children = property('children');
          for (const child of node.properties) {
            if (child === children) visit(child, [...ancestors, route]);
            else visit(child, ancestors);
          }
          return;
        }
      }
      ts.forEachChild(node, (child) => visit(child, ancestors));
    };
    visit(source, []);
  }

  const clientOnly = {
    apply: 'build',
    // The prerendered landing page's own build imports the whole catalogs: nothing to split there.
    applyToEnvironment: (environment) => environment.config.consumer === 'client',
  } satisfies Partial<Plugin>;

  return [
    {
      name: 'studyhall:route-catalogs',
      ...clientOnly,
      enforce: 'pre',
      configResolved(config) {
        clientRoot = config.root;
      },
      async buildStart() {
        translations = await readTranslations();
        locales = [...translations.byLocale.keys()];
        allIds = new Set(Object.keys(translations.byLocale.get(locales[0]!)!));
        idsByModule.clear();
        routeModules.clear();
        ancestorsOf.clear();
        closureIds.clear();
        idsByCatalog.clear();
        moduleInfos.clear();
      },
      // Catalogs are named for their locale and route: assets/catalog-ar-teacher-register-page-<hash>.js.
      outputOptions(options) {
        const previous = options.chunkFileNames ?? 'assets/[name]-[hash].js';
        return {
          ...options,
          chunkFileNames: (chunk) => {
            const catalog = chunk.facadeModuleId ? parseCatalogId(chunk.facadeModuleId) : null;
            if (catalog) return `assets/catalog-${catalog.locale}-[name]-[hash].js`;
            return typeof previous === 'function' ? previous(chunk) : previous;
          },
        };
      },
      resolveId(source) {
        if (source.startsWith(CATALOG_SPECIFIER)) return `${CATALOG_PREFIX}${source.slice(CATALOG_SPECIFIER.length)}`;
        return null;
      },
      load(id) {
        if (id.startsWith(CATALOG_PREFIX)) return `export const messages = ${JSON.stringify(PLACEHOLDER)};\n`;
        if (SHELL_MODULE.test(id)) {
          return [
            `const loaders = ${loadersSource(locales, SHELL_CATALOG)};`,
            '// The messages rendered outside any route (decision 057), filled in by scripts/vite-route-catalogs.ts.',
            'export const loadShellCatalog = (locale) => loaders[locale]().then((module) => module.messages);',
            '',
          ].join('\n');
        }
        return null;
      },
      async transform(code, id) {
        if (id.includes('node_modules') || !/\.tsx?$/.test(id)) return null;
        const matches = [...code.matchAll(LAZY_ROUTE)];
        if (matches.length === 0) return null;
        // Every call must be understood: a screen whose catalog is not loaded would show English.
        const calls = code.match(/\blazyRoute\(/g)?.length ?? 0;
        if (matches.length !== calls) {
          throw new Error(
            `route-catalogs: ${relative(id)} calls lazyRoute in a shape other than lazyRoute(() => import('…'))`,
          );
        }
        const output = new MagicString(code);
        const resolvedOf = new Map<string, string>();
        for (const match of matches) {
          const resolved = await this.resolve(match[2]!, id);
          if (!resolved) throw new Error(`route-catalogs: cannot resolve ${match[2]} from ${relative(id)}`);
          const route = relative(resolved.id);
          routeModules.set(resolved.id, route);
          resolvedOf.set(match[2]!, resolved.id);
          // Before the call's closing parenthesis: the catalogs become its second argument.
          output.appendLeft(match.index + match[0].length - 1, `, ${loadersSource(locales, route)}`);
        }
        recordAncestors(code, resolvedOf);
        return { code: output.toString(), map: output.generateMap({ hires: true }) };
      },
      renderChunk(code, chunk) {
        const catalog = chunk.facadeModuleId ? parseCatalogId(chunk.facadeModuleId) : null;
        if (!catalog) return null;
        const getInfo: ModuleInfoGetter = (id) => {
          if (!moduleInfos.has(id)) {
            const info = this.getModuleInfo(id);
            moduleInfos.set(
              id,
              info && {
                importedIds: info.importedIds,
                dynamicallyImportedIds: info.dynamicallyImportedIds,
                isEntry: info.isEntry,
              },
            );
          }
          return moduleInfos.get(id)!;
        };
        const ids = catalogIds(catalog.route, getInfo, this.getModuleIds());
        const messages = compileSubset(
          catalog.locale,
          translations.byLocale.get(catalog.locale)!,
          ids,
          translations.pseudoLocale,
        );
        const placeholder = JSON.stringify(PLACEHOLDER);
        const at = code.indexOf(placeholder);
        if (at === -1) throw new Error(`route-catalogs: ${chunk.fileName} lost its placeholder`);
        const output = new MagicString(code);
        output.overwrite(at, at + placeholder.length, `JSON.parse(${JSON.stringify(JSON.stringify(messages))})`);
        return { code: output.toString(), map: output.generateMap({ hires: true }) };
      },
    },
    {
      name: 'studyhall:route-catalogs:ids',
      ...clientOnly,
      // After Lingui's macros (and every other transform): the ids are string literals by then.
      transform: {
        order: 'post',
        handler(code, id) {
          if (id.includes('node_modules') || id.startsWith('\0')) return null;
          const ids = messageIdsIn(code, allIds);
          if (ids.size > 0) idsByModule.set(id, ids);
          return null;
        },
      },
    },
  ];
}
