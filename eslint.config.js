// ESLint (flat config): the recommended JavaScript and typescript-eslint rules, the import directions the layout
// depends on (ARCHITECTURE.md), and nothing that prettier decides. Run by `make lint`, which `make test` runs.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Files matching `files` may not import what `regex` matches (relative specifiers, as the code writes them). */
const forbid = (files, regex, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ regex, message }] }] },
});

export default defineConfig(
  {
    ignores: [
      'node_modules/',
      'lake/',
      '.cache/',
      '.tap/',
      'bench/work/',
      'bench/corpus/',
      'test-artifacts/',
      '**/*.tmp.ts',
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  { languageOptions: { globals: globals.node } },
  // Imports and exports sorted (packages, then relative paths), so a new import has one place to go; `eslint --fix` sorts.
  {
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: { 'simple-import-sort/imports': 'error', 'simple-import-sort/exports': 'error' },
  },
  { files: ['src/render/html/assets/*.js'], languageOptions: { globals: globals.browser } },
  {
    rules: {
      // Omitting a field by destructuring (`const { a, ...rest } = r`) is how records are trimmed.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      // `let [from, to] = …` where only one is reassigned reads better than splitting the pair.
      'prefer-const': ['error', { destructuring: 'all' }],
      // A default before a try or a loop reads as the default (4 places, none a bug).
      'no-useless-assignment': 'off',
      // The PDF text repair and its tests match control characters on purpose.
      'no-control-regex': 'off',
      // Rethrown errors carry the cause in their message; a `cause` would change what is logged (1 place).
      'preserve-caught-error': 'off',
    },
  },
  forbid(['core/**'], '^(\\.\\./)+(src|pipelines)/', 'core/ imports nothing from src/ or pipelines/'),
  forbid(['pipelines/**'], '^(\\.\\./)+src/', 'pipelines/ import core/, never src/'),
  forbid(['src/queries/**'], '^(\\.\\./)+(http|mcp|render)/', 'queries are HTTP-free: no http/, mcp/ or render/'),
  forbid(
    ['src/engine/**'],
    '^(\\.\\./)+(queries|http|mcp|render)/',
    'the engine is below queries/: no queries/, http/, mcp/ or render/',
  ),
  forbid(['src/http/**'], '^(\\.\\./)+mcp/', 'http/ does not know MCP: server.ts mounts it'),
  prettier,
);
