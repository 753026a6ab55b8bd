/**
 * The unified diff `skillbench proposals ID` prints (review/line-diff.ts) is a real patch: `git apply` turns each
 * file's before text into its after text exactly (hunk counts, context, "\ No newline at end of file", created and
 * removed files), over fixed cases and seeded random edits.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { unifiedDiff } from '../../src/main/review/line-diff'

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-line-diff-')))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Applies `diff` with git to a folder holding `before` at `rel`; the file's text after (null = gone). */
function applied(rel: string, before: string | null, diff: string): string | null {
  const work = fs.mkdtempSync(path.join(dir, 'w-'))
  if (before !== null) {
    fs.mkdirSync(path.dirname(path.join(work, rel)), { recursive: true })
    fs.writeFileSync(path.join(work, rel), before)
  }
  fs.writeFileSync(path.join(work, '.patch'), diff)
  const r = spawnSync('git', ['apply', '.patch'], { cwd: work, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: work } })
  expect(r.status, `${r.stderr}\n${diff}`).toBe(0)
  return fs.existsSync(path.join(work, rel)) ? fs.readFileSync(path.join(work, rel), 'utf8') : null
}

/** A small seeded generator (mulberry32): the same cases on every run. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe('unifiedDiff', () => {
  it('is empty for the same text and says where a one-line change is, with three lines of context', () => {
    expect(unifiedDiff('a.md', 'x\n', 'x\n')).toBe('')
    const before = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].join('\n') + '\n'
    const after = before.replace('5\n', 'five\n')
    expect(unifiedDiff('a.md', before, after)).toBe('--- a/a.md\n+++ b/a.md\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n')
  })

  it('git apply makes the after text from the before text: fixed cases, created and removed files', () => {
    const cases: Array<[string | null, string | null]> = [
      ['a\nb\nc\n', 'a\nb\nc'],
      ['a\nb\nc', 'a\nB\nc'],
      ['', 'new\n'],
      [null, 'created\nfile\n'],
      ['removed\nfile\n', null],
      ['one\n', ''],
      ['---\nname: x\n---\n\n# X\n\nBody.\n', '---\nname: x\n---\n\n# X\n\n<<<<<<< ours\nBody.\n=======\nOther.\n>>>>>>> theirs\n']
    ]
    for (const [before, after] of cases) expect(applied('s/SKILL.md', before, unifiedDiff('s/SKILL.md', before, after))).toBe(after)
  })

  it('git apply makes the after text from the before text: 150 seeded random edits', () => {
    const next = rng(54)
    const words = ['alpha', 'beta', 'gamma', 'delta', '', '# Title', '- item', '技能']
    const line = (): string => words[Math.floor(next() * words.length)]!
    for (let n = 0; n < 150; n++) {
      const a = Array.from({ length: Math.floor(next() * 30) }, line)
      const b = [...a]
      for (let e = Math.floor(next() * 6); e > 0; e--) {
        const at = Math.floor(next() * (b.length + 1))
        const r = next()
        if (r < 0.4) b.splice(at, 0, line())
        else if (r < 0.7) b.splice(at, 1)
        else b[at] = line()
      }
      const before = a.join('\n') + (next() < 0.8 && a.length ? '\n' : '')
      const after = b.join('\n') + (next() < 0.8 && b.length ? '\n' : '')
      const diff = unifiedDiff('f.md', before, after)
      if (before === after) expect(diff).toBe('')
      else expect(applied('f.md', before, diff)).toBe(after)
    }
  })
})
