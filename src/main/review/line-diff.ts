/**
 * Texts compared line by line: the longest common subsequence of two line lists (what the three-way merges of
 * sources/three-way.ts join on) and the unified diff a reviewer reads before accepting a proposal
 * (`skillbench proposals ID`). Pure.
 */

/** Cells of the LCS table above which two texts count as having no line in common (huge files: still right, just coarse). */
export const MAX_LCS_CELLS = 4_000_000

/** "a\nb\n" → ["a\n", "b\n"]; the last line keeps no newline when the text has none. */
export function splitLines(text: string): string[] {
  if (text === '') return []
  const lines = text.split('\n')
  return lines.map((l, i) => (i < lines.length - 1 ? `${l}\n` : l)).filter((l, i) => !(i === lines.length - 1 && l === ''))
}

/** Index pairs of a longest common subsequence of two line lists ([] past MAX_LCS_CELLS). */
export function lcsPairs(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const n = a.length
  const m = b.length
  if (n === 0 || m === 0 || n * m > MAX_LCS_CELLS) return []
  const w = m + 1
  const table = new Int32Array((n + 1) * w)
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * w + j] = a[i] === b[j] ? table[(i + 1) * w + j + 1]! + 1 : Math.max(table[(i + 1) * w + j]!, table[i * w + j + 1]!)
    }
  }
  const pairs: Array<[number, number]> = []
  let i = 0
  let j = 0
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      pairs.push([i, j])
      i++
      j++
    } else if (table[(i + 1) * w + j]! >= table[i * w + j + 1]!) i++
    else j++
  }
  return pairs
}

type Op = { t: ' ' | '-' | '+'; line: string }

/** The edit script from `a` to `b`: common head and tail first (cheap), the LCS only over what lies between. */
function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0
  while (head < a.length && head < b.length && a[head] === b[head]) head++
  let tail = 0
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  const midA = a.slice(head, a.length - tail)
  const midB = b.slice(head, b.length - tail)
  const ops: Op[] = a.slice(0, head).map((line) => ({ t: ' ', line }))
  let i = 0
  let j = 0
  for (const [pi, pj] of [...lcsPairs(midA, midB), [midA.length, midB.length] as [number, number]]) {
    while (i < pi) ops.push({ t: '-', line: midA[i++]! })
    while (j < pj) ops.push({ t: '+', line: midB[j++]! })
    if (i < midA.length && j < midB.length) ops.push({ t: ' ', line: midA[i]! })
    i++
    j++
  }
  for (const line of a.slice(a.length - tail)) ops.push({ t: ' ', line })
  return ops
}

const NO_NEWLINE = '\\ No newline at end of file\n'

function opLine(op: Op): string {
  return op.line.endsWith('\n') ? `${op.t}${op.line}` : `${op.t}${op.line}\n${NO_NEWLINE}`
}

/**
 * A unified diff (`diff -u` / git's layout: `--- a/PATH`, `+++ b/PATH`, `@@ -l,n +l,n @@` hunks with `context` lines
 * around each change) of one file's text before and after; null = the file does not exist on that side. '' when the
 * two are the same.
 */
export function unifiedDiff(path: string, before: string | null, after: string | null, context = 3): string {
  if (before === after) return ''
  const ops = editScript(splitLines(before ?? ''), splitLines(after ?? ''))
  const out = [before === null ? '--- /dev/null\n' : `--- a/${path}\n`, after === null ? '+++ /dev/null\n' : `+++ b/${path}\n`]
  const changed = ops.map((op, k) => (op.t !== ' ' ? k : -1)).filter((k) => k >= 0)
  let k = 0
  while (k < changed.length) {
    // one hunk: changes closer than 2 * context lines apart share it
    let last = k
    while (last + 1 < changed.length && changed[last + 1]! - changed[last]! <= 2 * context + 1) last++
    const from = Math.max(0, changed[k]! - context)
    const to = Math.min(ops.length, changed[last]! + context + 1)
    let oldStart = 1
    let newStart = 1
    for (const op of ops.slice(0, from)) {
      if (op.t !== '+') oldStart++
      if (op.t !== '-') newStart++
    }
    const hunk = ops.slice(from, to)
    const oldLen = hunk.filter((op) => op.t !== '+').length
    const newLen = hunk.filter((op) => op.t !== '-').length
    // as diff -u: an empty side's range starts at the line before it
    out.push(`@@ -${oldLen === 0 ? oldStart - 1 : oldStart},${oldLen} +${newLen === 0 ? newStart - 1 : newStart},${newLen} @@\n`, ...hunk.map(opLine))
    k = last + 1
  }
  return out.join('')
}
