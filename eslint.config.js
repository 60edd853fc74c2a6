import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'data', '.tmp', 'tests/e2e/.artifacts', 'src/server/db/migrations'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
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
          paths: [
            {
              name: 'react-hot-toast',
              message:
                "Import 'react-hot-toast/headless': the main entry writes <style> elements, which the CSP refuses (decision 018).",
            },
          ],
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
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'src/server/testing/**', 'tests/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
