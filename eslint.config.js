import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import pluginQuery from '@tanstack/eslint-plugin-query';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      'dist',
      'storybook-static',
      'node_modules',
      '.storybook/public',
      'coverage',
      'src/**/*.generated.ts',
      // The examples' installs and build output (test/examples/ makes them in a copy).
      'examples/*/node_modules',
      'examples/*/dist',
      'examples/*/.next',
      'examples/*/next-env.d.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginQuery.configs['flat/recommended'],
  jsxA11y.flatConfigs.recommended,
  {
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Nothing from the wire is rendered as HTML.',
        },
      ],
    },
  },
  {
    files: ['src/core/**', 'src/server/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['react', 'react/*', 'react-dom', 'react-dom/*', '@tanstack/react-*'],
              message: 'src/core never imports React: it is the framework-free layer.',
            },
            { group: ['../react/*', '../components/*'], message: 'core imports only core.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/react/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../components/*'], message: 'react/ sits below components/.' }] },
      ],
    },
  },
);
