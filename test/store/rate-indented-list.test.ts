/**
 * Issue 37 walk: "Rating re-indents the task_directories list". A skill whose front matter has an indented
 * `task_directories:` list (as a hand edit or another YAML writer leaves it), or upstream's column-0 list with a
 * comment, is rated through the CLI `rate` and through the app (`skills.rate`): every byte but the rating's
 * lines (quality_index, updated_at) stays as it was.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { CliIo } from '../../src/main/cli/common'
import { main } from '../../src/main/cli/index'
import type { LibraryInfo, RateResult } from '../../src/shared/api'
import { openTestBench, tempDir as benchDir } from '../workbench/helpers'
import { tempDir } from './helpers'

const ROOT = path.resolve(__dirname, '..', '..')

/** Upstream's file (PyYAML `yaml.dump(allow_unicode=True, sort_keys=False)`), its list indented by two spaces. */
function upstreamFile(list: string): string {
  return [
    '---',
    "skill_id: '1768615161'",
    'title: 用 Python 写一个归并排序',
    'usage_conditions: 当需要完成类似任务时使用：实现归并排序并写入 sort.py',
    'quality_index: 0.5',
    'fetch_count: 3',
    "related_code: codes/task_20260117_095921/sort.py",
    'task_directories:',
    list,
    "created_at: '2026-01-17T09:59:21.686210'",
    "updated_at: '2026-01-17T09:59:21.686210'",
    'last_used_at: null',
    "user_preferences: ''",
    '---',
    '',
    '# 归并排序',
    '',
    '1. 拆分',
    '2. 合并',
    ''
  ].join('\n')
}

const INDENTED = '  - output_20260117_095921\n  - output_20260118_101010'
const INDENTED_WITH_COMMENT = '  # the first run, then its retry\n  - output_20260117_095921\n  - output_20260118_101010'
const FOUR_SPACES = '    - output_20260117_095921'

let dirs: string[] = []
afterEach(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  dirs = []
})

/** Lines of `after` that differ from `before`, by key (same line count required). */
function changedKeys(before: string, after: string): string[] {
  const a = before.split('\n')
  const b = after.split('\n')
  expect(b).toHaveLength(a.length)
  return b.flatMap((line, i) => (line === a[i] ? [] : [line.split(':')[0]!]))
}

async function cliRate(library: string, id: string, score: string): Promise<number> {
  const err: string[] = []
  const io: CliIo = { stdout: () => {}, stderr: (s) => void err.push(s), isTTY: false, cwd: ROOT, env: {}, signal: new AbortController().signal }
  const code = await main(['rate', id, score, '--library', library], io)
  if (code !== 0) throw new Error(err.join(''))
  return code
}

describe('rating keeps an indented task_directories list byte for byte', () => {
  for (const [label, list] of [
    ['two-space indent', INDENTED],
    ['two-space indent with a comment (the full YAML path)', INDENTED_WITH_COMMENT],
    ['four-space indent', FOUR_SPACES]
  ] as const) {
    it(`CLI rate: ${label}`, async () => {
      const dir = tempDir('sb-rate-indent-')
      dirs.push(dir)
      const file = path.join(dir, 'skill_用 Python 写一个归并排序.md')
      const before = upstreamFile(list)
      fs.writeFileSync(file, before)
      await cliRate(dir, '1768615161', '1')
      const after = fs.readFileSync(file, 'utf8')
      expect(changedKeys(before, after)).toEqual(['quality_index', 'updated_at'])
      expect(after).toContain(`task_directories:\n${list}\n`)
      expect(after).toMatch(/^quality_index: 0\.65$/m)
    })
  }

  it('the app (skills.rate): same file, same bytes but the rating', async () => {
    const root = path.join(benchDir('rate-indent'), 'data')
    const experience = path.join(root, 'carol', 'general', 'experience')
    fs.mkdirSync(experience, { recursive: true })
    dirs.push(path.dirname(root))
    const file = path.join(experience, 'skill_用 Python 写一个归并排序.md')
    const before = upstreamFile(INDENTED_WITH_COMMENT)
    fs.writeFileSync(file, before)
    const b = await openTestBench({}, root)
    try {
      const library = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'carol')!.path
      const rated = await b.call<RateResult>('skills.rate', { library, skillId: '1768615161', rating: 1 })
      expect(rated.after).toBeCloseTo(0.65, 3)
      const after = fs.readFileSync(file, 'utf8')
      expect(changedKeys(before, after)).toEqual(['quality_index', 'updated_at'])
      expect(after).toContain(`task_directories:\n${INDENTED_WITH_COMMENT}\n`)
    } finally {
      await b.wb.dispose()
    }
  })
})

describe('patchFrontMatterYaml on front matter the fast path leaves alone', () => {
  it('replaces only the changed lines; falls back to a reprint where a line cannot be patched alone', async () => {
    const { patchFrontMatterYaml } = await import('../../src/main/store/skill-file')
    const indented = 'title: t\ntask_directories:\n  - output_1\nquality_index: 0.5\n'
    expect(patchFrontMatterYaml(indented, [{ path: ['quality_index'], value: 0.65 }])).toBe(indented.replace('0.5', '0.65'))
    // a new key, a multi-line plain scalar, a trailing comment: the full path (the list comes out at column 0)
    for (const yaml of ['title: t\nlist:\n  - a\n', 'quality_index: 0.5\n  9\nlist:\n  - a\n', 'quality_index: 0.5 # mid\nlist:\n  - a\n']) {
      const out = patchFrontMatterYaml(yaml, [{ path: ['quality_index'], value: 0.65 }])
      expect(out).toContain('quality_index: 0.65')
      expect(out).toContain('\n- a\n')
    }
    // an unquoted id that PyYAML would read as a number is quoted by the reprint, as before
    expect(patchFrontMatterYaml("skill_id: 0123\nlist:\n  - a\nquality_index: 0.5\n", [{ path: ['quality_index'], value: 1 }])).toContain("skill_id: '0123'")
  })
})
