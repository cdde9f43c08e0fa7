// @ts-check
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Every folder of portal/src/features is a feature: a new one is fenced in without a list to forget. */
const portalFeatures = readdirSync(new URL('./portal/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-bundle/**',
      '**/node_modules/**',
      '**/.nx/**',
      '**/coverage/**',
      'proto/src/gen/**',
      '.data/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
      // tsc (the build) assigns parameter properties and class fields before a super() that is
      // not a statement of its own at the top of the constructor, which throws at run time, and
      // swc (jest's unit specs) does not (every wallet refusal was a 500).
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MethodDefinition[kind='constructor'] CallExpression[callee.type='Super']:not(MethodDefinition[kind='constructor'] > FunctionExpression > BlockStatement > ExpressionStatement > CallExpression)",
          message:
            'Call super() once, as a statement of the constructor body itself (not in a branch): tsc and swc compile the other forms differently.',
        },
      ],
    },
  },
  {
    // Nest injects by the runtime type of constructor parameters: those imports must stay values.
    files: ['control-plane/src/**/*.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  {
    // The agent runs with --lite-mode (node-agent/src/node-flags.ts): no WebAssembly, so no
    // fetch (undici parses HTTP with wasm). Use node:http.
    files: ['node-agent/src/**/*.ts'],
    ignores: ['node-agent/src/**/*.spec.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        {
          name: 'fetch',
          message: 'The agent runs without WebAssembly (--lite-mode): use node:http.',
        },
        { name: 'WebAssembly', message: 'The agent runs with --lite-mode: no WebAssembly.' },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.db-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts'],
    languageOptions: { globals: { ...globals.jest } },
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['portal/**/*.{ts,tsx}', 'portal/test/**/*.mjs'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, import: importPlugin },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // bulletproof-react: app -> features -> shared; no feature imports another feature.
      'import/no-restricted-paths': [
        'error',
        {
          // Zones are paths from the repository root, whichever folder ESLint runs in (the
          // portal's own lint runs in portal/, where they matched nothing before).
          basePath: fileURLToPath(new URL('.', import.meta.url)),
          zones: [
            ...portalFeatures.map((feature) => ({
              target: `./portal/src/features/${feature}`,
              from: './portal/src/features',
              except: [`./${feature}`],
              message: 'Features must not import each other: compose them in src/app.',
            })),
            {
              target: ['./portal/src/components', './portal/src/lib', './portal/src/config'],
              from: ['./portal/src/features', './portal/src/app'],
              message: 'Shared code must not depend on features or the app.',
            },
            {
              target: './portal/src/features',
              from: './portal/src/app',
              message: 'Features must not import the app.',
            },
          ],
        },
      ],
      'import/no-cycle': 'error',
    },
  },
  {
    // A component a person can hold; past this, split it into smaller components or
    // move its state into a hook (features/auth/components/use-auth-dialog.ts).
    files: ['portal/src/**/*.tsx'],
    ignores: ['portal/src/**/*.spec.tsx'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 150, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  prettier,
);
