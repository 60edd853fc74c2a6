import type { RolldownBabelPreset } from '@rolldown/plugin-babel';

/**
 * Babel, for Lingui's macros only (decision 054): `<Trans>`, `t` and `useLingui` imported from
 * `@lingui/…/macro` become message lookups, in the build (vite.config.ts) and the component tests
 * (vitest.config.ts). @vitejs/plugin-react 6 has no Babel of its own; a file that imports no macro
 * is not handed to Babel at all (the filter), so the rest of the build keeps its speed.
 */
export const LINGUI_MACROS = {
  presets: [
    {
      preset: () => ({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
      rolldown: {
        filter: {
          id: { exclude: /[\\/]node_modules[\\/]/ },
          code: /from ['"]@lingui\/[a-z]+\/macro['"]/,
        },
      },
    } satisfies RolldownBabelPreset,
  ],
};
