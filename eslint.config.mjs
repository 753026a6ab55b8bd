import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'artifacts/**', '.bench-tmp/**', 'resources/sample-data/**', 'test/fixtures/**/*.js', '.scratch-store/**', '.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      'no-restricted-properties': ['error', { object: 'describe', property: 'only' }, { object: 'it', property: 'only' }, { object: 'test', property: 'only' }]
    }
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' }
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Types only from the API contract: its values are zod schemas, which would be parsed and built by every page.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron', 'node:*', 'fs', 'path', 'openai', '**/main/**'] },
            { group: ['**/shared/api', '**/shared/api-deploy', 'zod'], allowTypeImports: true, message: 'types only from the API contract (its values are zod schemas); ApiError is in shared/api-error' }
          ]
        }
      ]
    }
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['electron', 'node:*', 'fs', 'path', 'react', '**/main/**', '**/renderer/**'] }] }
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/app/**', 'src/main/store/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['electron', 'react', 'react-dom', '**/renderer/**'] }] }
  },
  {
    // The store is the lowest layer of the main process: it imports the shared contract and itself, nothing above.
    files: ['src/main/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['electron', 'react', 'react-dom', '**/renderer/**'] },
            { regex: '^\\.\\./(?!\\.\\./shared/)', message: 'src/main/store is the lowest layer: it may import src/shared and its own modules only' }
          ]
        }
      ]
    }
  }
)
