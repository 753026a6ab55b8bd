/**
 * The layer rule: a module of `src/main` may import only what its floor may (the table in eslint.config.mjs,
 * drawn in docs/ARCHITECTURE.md). A unit is the first folder under src/main (or a file at its top, by name:
 * `workbench.ts` belongs with `workbench/`); `shared` is src/shared. Static, type-only, re-exported and dynamic
 * imports all count: a type import upward ties the floors together as much as a value does.
 */
import path from 'node:path'

function unitOf(file, mainDir, sharedDir) {
  if (file === sharedDir || file.startsWith(sharedDir + path.sep)) return 'shared'
  if (!file.startsWith(mainDir + path.sep)) return null
  const first = path.relative(mainDir, file).split(path.sep)[0]
  return first.replace(/\.(ts|tsx|mts|cts|js|mjs)$/, '')
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'lower layers of src/main never import higher ones (the layer table)' },
    schema: [
      {
        type: 'object',
        properties: { main: { type: 'string' }, shared: { type: 'string' }, table: { type: 'object' } },
        required: ['table'],
        additionalProperties: false
      }
    ],
    messages: {
      upward: "'{{from}}' may not import '{{to}}' ({{spec}}): {{from}} may import {{allowed}} (the layer table in eslint.config.mjs, docs/ARCHITECTURE.md)",
      undeclared: "src/main/{{from}} has no floor in the layer table: add it to LAYERS in eslint.config.mjs with what it may import"
    }
  },
  create(context) {
    const options = context.options[0] ?? {}
    const cwd = context.cwd ?? process.cwd()
    const mainDir = path.resolve(cwd, options.main ?? 'src/main')
    const sharedDir = path.resolve(cwd, options.shared ?? 'src/shared')
    const table = options.table
    const file = path.resolve(cwd, context.filename)
    const from = unitOf(file, mainDir, sharedDir)
    if (from === null || from === 'shared') return {}
    const allowed = table[from]

    function check(node, source) {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return
      const to = unitOf(path.resolve(path.dirname(file), source.value), mainDir, sharedDir)
      if (to === null || to === from || allowed.includes(to)) return
      context.report({ node: source, messageId: 'upward', data: { from, to, spec: source.value, allowed: allowed.length ? allowed.join(', ') : 'nothing of ours' } })
    }

    if (!allowed) {
      return {
        Program(node) {
          context.report({ node, messageId: 'undeclared', data: { from } })
        }
      }
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument)
    }
  }
}
