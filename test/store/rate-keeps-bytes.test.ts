import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CliIo } from '../../src/main/cli/common'
import { main } from '../../src/main/cli/index'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { tempDir } from './helpers'

const EXPERIENCE = realPath('agiagent', 'agi-hub_AGIAgent', 'data_root_example', 'default', 'general', 'experience')
const ROOT = path.resolve(__dirname, '..', '..')

let dirs: string[] = []
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  dirs = []
})

async function rate(library: string, id: string, score: string): Promise<number> {
  const io: CliIo = { stdout: () => {}, stderr: () => {}, isTTY: false, cwd: ROOT, env: {}, signal: new AbortController().signal }
  return main(['rate', id, score, '--library', library], io)
}

/** The lines of `after` that differ from `before` (same line count required). */
function changedLines(before: string, after: string): string[] {
  const a = before.split('\n')
  const b = after.split('\n')
  expect(b).toHaveLength(a.length)
  return b.filter((line, i) => line !== a[i])
}

/** Copies one real skill file into a fresh library (at run time; never committed), optionally edited. */
function library(file: string, edit: (text: string) => string = (t) => t): { dir: string; target: string; text: string } {
  const dir = tempDir('sb-rate-bytes-')
  dirs.push(dir)
  const target = path.join(dir, path.basename(file))
  const text = edit(fs.readFileSync(file, 'utf8'))
  fs.writeFileSync(target, text)
  return { dir, target, text }
}

describe.skipIf(!HAS_REAL_DATA)('rating a real AGIAgent skill file changes only its rating lines', () => {
  const files = HAS_REAL_DATA ? fs.readdirSync(EXPERIENCE).filter((f) => f.endsWith('.md')).map((f) => path.join(EXPERIENCE, f)) : []

  it('every real file: `task_directories:` items stay at column 0; only quality_index and updated_at change', async () => {
    expect(files.length).toBeGreaterThanOrEqual(4)
    for (const file of files) {
      const { dir, target, text } = library(file)
      expect(text).toMatch(/^task_directories:\n- output_/m)
      const id = /^skill_id: '?(\d+)'?$/m.exec(text)?.[1] as string
      expect(await rate(dir, id, '0.8')).toBe(0)
      const after = fs.readFileSync(target, 'utf8')
      const changed = changedLines(text, after)
      expect(changed.map((l) => l.split(':')[0])).toEqual(['quality_index', 'updated_at'])
      expect(after).toMatch(/^task_directories:\n- output_/m)
      expect(after).not.toMatch(/^ +- output_/m)
    }
  })

  it('with two directories and a comment (the full YAML path), the list is still not re-indented', async () => {
    const { dir, target, text } = library(files[0] as string, (t) =>
      t.replace(/^(task_directories:\n- output_\S+\n)/m, '$1- output_20260116_101010\n').replace(/^---\n/, '---\n# kept\n')
    )
    const id = /^skill_id: '?(\d+)'?$/m.exec(text)?.[1] as string
    expect(await rate(dir, id, '0.8')).toBe(0)
    const after = fs.readFileSync(target, 'utf8')
    expect(changedLines(text, after).map((l) => l.split(':')[0])).toEqual(['quality_index', 'updated_at'])
  })
})
