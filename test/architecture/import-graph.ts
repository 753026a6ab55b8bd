/**
 * The import graph of a source tree, read with TypeScript's own pre-processor (static, type-only, re-exports and
 * dynamic `import()` alike), and its circles (strongly connected components of more than one file, or a file
 * importing itself).
 */
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const EXTENSIONS = ['.ts', '.tsx']

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) sourceFiles(p, out)
    else if (EXTENSIONS.some((e) => entry.name.endsWith(e)) && !entry.name.endsWith('.d.ts')) out.push(p)
  }
  return out
}

function resolve(from: string, spec: string, known: ReadonlySet<string>): string | undefined {
  const base = path.resolve(path.dirname(from), spec)
  const stripped = base.replace(/\.(js|mjs|cjs)$/, '')
  for (const c of [base, ...EXTENSIONS.map((e) => stripped + e), ...EXTENSIONS.map((e) => path.join(base, 'index' + e))]) {
    if (known.has(c)) return c
  }
  return undefined
}

/** file → the files of the same tree it imports (relative specifiers only). */
export function importGraph(dir: string): Map<string, string[]> {
  const files = sourceFiles(dir)
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true)
    const deps = new Set<string>()
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue
      const target = resolve(file, ref.fileName, known)
      if (target) deps.add(target)
    }
    graph.set(file, [...deps])
  }
  return graph
}

/** Every circle of the graph, each as its files sorted (Tarjan's algorithm, iterative). */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const found: string[][] = []
  let next = 0
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work: { node: string; edge: number }[] = [{ node: start, edge: 0 }]
    index.set(start, next)
    low.set(start, next++)
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const top = work[work.length - 1] as { node: string; edge: number }
      const edges = graph.get(top.node) ?? []
      if (top.edge < edges.length) {
        const to = edges[top.edge++] as string
        if (!index.has(to)) {
          index.set(to, next)
          low.set(to, next++)
          stack.push(to)
          onStack.add(to)
          work.push({ node: to, edge: 0 })
        } else if (onStack.has(to)) {
          low.set(top.node, Math.min(low.get(top.node) as number, index.get(to) as number))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(top.node) as number))
      if (low.get(top.node) === index.get(top.node)) {
        const component: string[] = []
        for (;;) {
          const n = stack.pop() as string
          onStack.delete(n)
          component.push(n)
          if (n === top.node) break
        }
        if (component.length > 1 || edges.includes(top.node)) found.push(component.sort())
      }
    }
  }
  return found
}

/** The files of the graph no entry reaches through imports, sorted. */
export function unreachable(graph: ReadonlyMap<string, readonly string[]>, entries: readonly string[]): string[] {
  const seen = new Set(entries)
  const todo = [...entries]
  for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
    for (const to of graph.get(file) ?? []) {
      if (!seen.has(to)) {
        seen.add(to)
        todo.push(to)
      }
    }
  }
  return [...graph.keys()].filter((f) => !seen.has(f)).sort()
}
