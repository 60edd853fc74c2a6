import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import logicalDirection from './scripts/eslint/logical-direction.js';
import { NO_SCHEMA_SENTENCES } from './scripts/eslint/no-schema-sentences.js';

/** react-hot-toast's main entry, which the client must not import. */
const HEADLESS_TOAST_ONLY = {
  name: 'react-hot-toast',
  message:
    "Import 'react-hot-toast/headless': the main entry writes <style> elements, which the CSP refuses (decision 018).",
};
// Code the browser loads builds schemas with zod/mini: classic zod's methods live on its
// prototypes and do not tree-shake, 15 kB gzipped on every screen (decision 073).
const ZOD_MINI_ONLY = {
  name: 'zod',
  message: "Import { z } from 'zod/mini' in code the browser loads (decision 073); the server may use 'zod'.",
};

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', '.tmp', 'tests/e2e/.artifacts', 'src/server/db/migrations'] },
  js.configs.recommended,
  // Typed linting (decision 028): the rules that need the type checker see every TypeScript file
  // through tsconfig.json; the plain JavaScript scripts get the untyped set.
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      // A switch over a union names every member; a default does not count, so a member added
      // later is a lint error where it is not handled.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
      // Passing a caught error on as it came is fine; rejecting with a new non-Error is not.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // Our "methods" are closures in object literals and props, never bound to `this`.
      '@typescript-eslint/unbound-method': 'off',
      // An async function that does not await still turns a throw into a rejection, which the
      // promise-returning interfaces it implements (stores, buses, Fastify plugins) rely on.
      '@typescript-eslint/require-await': 'off',
    },
  },
  { files: ['**/*.{js,mjs,cjs}'], extends: [tseslint.configs.disableTypeChecked] },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Right to left is designed (issue 32 point 6, decision 055): logical sides only.
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { local: { rules: { 'logical-direction': logicalDirection } } },
    rules: { 'local/logical-direction': 'error' },
  },
  {
    files: ['src/client/**/*.tsx'],
    extends: [jsxA11y.flatConfigs.recommended],
    // `role` on our own components is the account's role (teacher, student), not an ARIA role.
    rules: {
      'jsx-a11y/aria-role': ['error', { ignoreNonDOM: true }],
      // A labelled region or log that scrolls takes the focus, so a keyboard can scroll it (axe's
      // scrollable-region-focusable asks the same).
      'jsx-a11y/no-noninteractive-tabindex': [
        'error',
        { tags: [], roles: ['tabpanel', 'region', 'log'], allowExpressionValues: true },
      ],
    },
  },
  {
    // Arrows point one way (ARCHITECTURE): client and shared never import the server.
    files: ['src/client/**/*.{ts,tsx}', 'src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '#server/*'], message: 'The client and shared code must not import the server.' },
          ],
          paths: [HEADLESS_TOAST_ONLY, ZOD_MINI_ONLY],
        },
      ],
    },
  },
  {
    // The shared schemas carry codes, not sentences (issue 32 point 3, decision 026's third
    // addendum): the client words codes in the reader's language, the server its English.
    files: ['src/shared/**/*.ts'],
    ignores: ['**/*.test.*'],
    rules: {
      'no-restricted-syntax': ['error', ...NO_SCHEMA_SENTENCES],
    },
  },
  {
    // The client reaches the API only through call(endpoint): the path, method and answer type
    // come from the shared contract, so no screen writes a path that can drift (decision 026).
    files: ['src/client/**/*.{ts,tsx}'],
    ignores: ['**/*.test.*'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          'Literal[value=/^\\/api(\\/|$)/]',
          'TemplateLiteral > TemplateElement.quasis:first-child[value.raw=/^\\/api(\\/|$)/]',
        ].map((selector) => ({
          selector,
          message: 'Call the API through call(endpoint) from the contract in src/shared/contract (decision 026).',
        })),
      ],
    },
  },
  {
    // Component tests set up their data through the server's test factories; they are not shipped.
    files: ['src/client/**/*.test.tsx', 'src/client/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/server/**', '!**/server/testing', '!**/server/testing/*', '#server/*'],
              message: 'Component tests may import the server’s testing helpers only.',
            },
          ],
          paths: [HEADLESS_TOAST_ONLY, ZOD_MINI_ONLY],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'src/shared runs in the browser too: no node:* imports.' },
            {
              group: ['**/server/**', '**/client/**', '#server/*', '#client/*'],
              message: 'src/shared imports nothing of the two sides.',
            },
          ],
          paths: [ZOD_MINI_ONLY],
        },
      ],
    },
  },
  {
    // Tests read parsed response bodies as `any` on purpose (TestApp.call): terse assertions.
    files: ['**/*.test.{ts,tsx}', 'src/server/testing/**', 'src/client/testing/**', 'tests/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
