import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import layers from './eslint-rules/layers.mjs'

// The floors of src/main, bottom up, and what each may import (a unit is a folder, or a file at the top by name;
// 'shared' is src/shared). Drawn in docs/ARCHITECTURE.md; checked by eslint-rules/layers.mjs on every import,
// type-only and dynamic ones included. A new folder gets a line here before it lints.
const DOMAIN = {
  // floor 0: leaves, pure or self-contained (text: and shared/cjk.ts, how CJK text is cut, which the renderer's
  // map names share)
  text: ['shared'],
  cluster: [],
  config: [],
  'cache-dir': [],
  'cache-files': [],
  llm: ['shared'],
  // floor 1: the files
  store: ['shared'],
  // floor 2: one job each on top of the store
  // review applies memory proposals through memory's writers (memory-proposals.ts); memory never imports review
  review: ['shared', 'store', 'memory'],
  search: ['shared', 'store', 'text', 'cache-dir', 'cache-files'],
  scan: ['shared', 'config', 'cache-dir', 'cache-files'],
  formats: ['shared', 'store', 'text'],
  audit: ['shared', 'store', 'text', 'llm', 'cache-files'],
  memory: ['shared', 'llm', 'store'],
  // floor 3
  usage: ['shared', 'scan', 'store'],
  tools: ['shared', 'search', 'store', 'text'],
  // one library's services composed once, for the CLI, the MCP server, the search daemon and the app's workbench
  services: ['shared', 'store', 'search', 'tools', 'usage'],
  // floor 4: what proposes changes, all through review
  curate: ['shared', 'review', 'text', 'cluster', 'search', 'store', 'llm', 'cache-files'],
  reflect: ['shared', 'llm', 'review', 'scan', 'store', 'tools', 'text', 'formats', 'memory'],
  sources: ['shared', 'formats', 'review', 'store', 'cache-dir', 'audit'],
  deploy: ['shared', 'formats', 'review', 'sources', 'store', 'audit'],
  sync: ['shared', 'review', 'sources', 'store']
}
const BELOW_HOSTS = ['shared', ...Object.keys(DOMAIN)]
export const LAYERS = {
  ...DOMAIN,
  // the hosts, on top: each may import every domain floor, and only the hosts listed
  mcp: BELOW_HOSTS,
  workbench: [...BELOW_HOSTS, 'mcp'],
  'web-server': ['shared', 'config', 'workbench'],
  cli: [...BELOW_HOSTS, 'mcp', 'web-server'],
  app: ['shared', 'config', 'web-server', 'workbench']
}

// A message a person can see leaves src/main with a code (shared/error-codes.ts): these errors take `coded(…)`,
// never words written in place (a string, a template, a sum, or another error's `.message` passed on).
const ERROR_CLASSES = 'StoreError|CurationError|LlmError|ApiError|SyncError|CodedError|ManifestError|SourceError'
const PLAIN_TEXT = '^(Literal|TemplateLiteral|BinaryExpression)$'
const PLAIN_MESSAGE_HELP = "give a coded message: coded('<code>', { params }) with a template in src/shared/error-codes.ts and a zh entry in src/shared/error-codes-zh.ts"
export const PLAIN_MESSAGE_RULES = [
  { selector: `NewExpression[callee.name=/^(${ERROR_CLASSES})$/][arguments.1.type=/${PLAIN_TEXT}/]`, message: `a plain-text error message: ${PLAIN_MESSAGE_HELP}` },
  { selector: `NewExpression[callee.name=/^(${ERROR_CLASSES})$/][arguments.1.type='MemberExpression'][arguments.1.property.name='message']`, message: `another error's words passed on as text: ${PLAIN_MESSAGE_HELP} (reasonOf(err) as a param keeps its code)` },
  { selector: `CallExpression[callee.name='badRequest'][arguments.0.type=/${PLAIN_TEXT}/]`, message: `a plain-text error message: ${PLAIN_MESSAGE_HELP}` },
  // the formats' FormatError takes its message first (no kind)
  { selector: `NewExpression[callee.name='FormatError'][arguments.0.type=/${PLAIN_TEXT}/]`, message: `a plain-text error message: ${PLAIN_MESSAGE_HELP}` },
  { selector: `NewExpression[callee.name='FormatError'][arguments.0.type='MemberExpression'][arguments.0.property.name=/^(message|reason)$/]`, message: `another error's words passed on as text: ${PLAIN_MESSAGE_HELP} (reasonOf(err) as a param keeps its code)` }
]
// Folders whose every error is coded: a bare `new Error('words')` there would be English again (use CodedError).
export const CODED_FOLDERS = ['sync', 'deploy', 'memory', 'review', 'tools']
export const PLAIN_ERROR_RULES = [
  { selector: `NewExpression[callee.name='Error'][arguments.0.type=/${PLAIN_TEXT}/]`, message: `a plain-text Error in a folder whose errors are coded: new CodedError(kind, coded('<code>', { params })) (${PLAIN_MESSAGE_HELP})` }
]

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
    ignores: ['src/main/app/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['electron', 'react', 'react-dom', '**/renderer/**'] }] }
  },
  {
    files: ['src/main/**/*.{ts,tsx}'],
    plugins: { skillbench: { rules: { layers } } },
    rules: { 'skillbench/layers': ['error', { table: LAYERS }] }
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...PLAIN_MESSAGE_RULES] }
  },
  {
    // the same rule's options replace the ones above for these folders: both lists, then
    files: CODED_FOLDERS.map((f) => `src/main/${f}/**/*.ts`),
    ignores: ['src/main/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...PLAIN_MESSAGE_RULES, ...PLAIN_ERROR_RULES] }
  }
)
