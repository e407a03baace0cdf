import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'tmp/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // Apps depend on libs, never on each other; libs are reached through their public index.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/*', '../../apps/**', ...['translate-api', 'batch-worker', 'webhook-dispatcher', 'image-api', 'image-worker', 'console'].map((app) => `**/${app}/src/**`)],
              message: 'Apps never import each other: move shared code to a lib.',
            },
            { group: ['@platform/*/src/**', '**/libs/*/src/**'], message: 'Import a lib through its public entry point (@platform/<lib>).' },
          ],
        },
      ],
    },
  },
  {
    // The console's browser app runs in the browser, not in Node.
    files: ['apps/console/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests and fault scenarios read loosely typed JSON bodies; precise response types live in the DTOs under test.
    files: ['**/*.spec.ts', 'libs/testing/**/*.ts', 'faults/src/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
