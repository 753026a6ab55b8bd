/**
 * Curation progress per skill (issue 37, seed 000 "处理每个skill时显示进度"): every skill read and checked is
 * counted, each cluster named, on stderr (a line redrawn at a terminal, a line per tenth elsewhere) and in the
 * app's job messages (translated).
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { CliIo } from '../../src/main/cli/common'
import { curateProgressReporter } from '../../src/main/cli/curate-progress'
import { main } from '../../src/main/cli/index'
import { curateLibrary, openForCuration } from '../../src/main/curate/service'
import type { CurationProgress } from '../../src/main/curate/proposals'
import { coded, codedLine, refOf } from '../../src/shared/error-codes'
import { translateLine, translateText } from '../../src/renderer/i18n/messages-errors'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { DEPLOY, DEPLOY_NEAR, makeLibrary, POETRY, SORTING, SORTING_COPY, tempDir } from './fixtures'

function library(extra = 0): string {
  return makeLibrary([
    { id: '1001', title: 'Sorting arrays', body: SORTING, quality: 0.6, fetch: 2, created: '2026-11-01T00:00:00' },
    { id: '1002', title: 'Sorting arrays in TS', body: SORTING_COPY, quality: 0.4, fetch: 1, created: '2026-11-02T00:00:00' },
    { id: '1003', title: 'Deploy with compose', body: DEPLOY, created: '2026-11-01T00:00:00', fetch: 1 },
    { id: '1004', title: 'Compose deployment checklist', body: DEPLOY_NEAR, created: '2026-11-01T00:00:00', fetch: 1 },
    { id: '1005', title: 'Haiku', body: POETRY, created: '2020-01-01T00:00:00' },
    ...Array.from({ length: extra }, (_, i) => ({ id: String(2000 + i), title: `Poem number ${i}`, body: `${POETRY}\nVariation ${i}: ${'word'.repeat(i + 1)}\n`, created: '2026-11-01T00:00:00', fetch: 1 }))
  ])
}

describe('curation progress per skill', () => {
  it('the service reports each skill read and checked, with its title', async () => {
    const events: CurationProgress[] = []
    const opened = await openForCuration(library(15), { toCurate: {}, onProgress: (p) => events.push(p) })
    await curateLibrary(opened, { onProgress: (p) => events.push(p), settings: { eps: 0.9 } })
    const reading = events.filter((e) => e.message === 'reading skills')
    expect(reading.at(-1)).toMatchObject({ done: 20, total: 20 })
    expect(reading.filter((e) => e.skill).map((e) => e.skill)).toEqual(expect.arrayContaining(['Compose deployment checklist', 'Deploy with compose', 'Haiku', 'Sorting arrays', 'Sorting arrays in TS', 'Poem number 14']))
    const checking = events.filter((e) => e.message === 'checking skills')
    expect(checking.map((e) => e.done)).toEqual(checking.map((_, i) => i + 1))
    expect(checking.at(-1)?.total).toBe(checking.length)
    for (const e of checking) expect(typeof e.skill).toBe('string')
  })

  it.skipIf(!HAS_REAL_DATA)('each cluster is named by its skills as it is consolidated (860 real skills)', { timeout: 120_000 }, async () => {
    // the whole collection (in a copy: curation saves its plan in the library): its document frequencies make the clusters
    const dir = path.join(tempDir('real-clusters'), 'lib')
    fs.cpSync(realPath('skills/composiohq_awesome-claude-skills'), dir, { recursive: true })
    const events: CurationProgress[] = []
    const plan = await curateLibrary(await openForCuration(dir, { toCurate: {} }), { onProgress: (p) => events.push(p) })
    const clusters = events.filter((e) => e.message === 'consolidating clusters')
    const n = plan.proposals.filter((p) => p.kind === 'consolidate').length
    expect(n).toBeGreaterThanOrEqual(2)
    expect(clusters.map((e) => e.done)).toEqual([...Array(n + 1).keys()]) // one before each cluster, then the end
    expect(clusters.every((e) => e.total === n)).toBe(true)
    expect(clusters[0]!.skill).toBe('Capsule CRM Automation + capsule_crm-automation')
  })

  it('skillbench curate prints the counts on stderr, a line per tenth when stderr is not a terminal', async () => {
    const out = { stdout: '', stderr: '' }
    const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), isTTY: false, cwd: process.cwd(), env: {}, signal: new AbortController().signal }
    expect(await main(['curate', '--library', library(15), '--no-usage'], io)).toBe(0)
    const lines = out.stderr.split('\n')
    const reading = lines.filter((l) => l.startsWith('  reading skills '))
    expect(reading.length).toBeGreaterThanOrEqual(5)
    expect(reading.length).toBeLessThanOrEqual(10)
    expect(reading.at(-1)).toBe('  reading skills 20/20')
    expect(reading[0]).toMatch(/^ {2}reading skills \d+\/20 · \S/)
    expect(lines.filter((l) => l.startsWith('  checking skills ')).at(-1)).toBe('  checking skills 20/20')
    expect(out.stderr.indexOf('  reading skills 20/20')).toBeLessThan(out.stderr.indexOf('Loaded 20 skills'))
    expect(out.stderr.indexOf('Step 3: Cleaning unused skills...')).toBeLessThan(out.stderr.indexOf('  checking skills 20/20'))
    expect(out.stderr).not.toContain('\r') // no terminal codes in a log
  })

  it('at a terminal: one line redrawn (bar, count, title), at most every 50 ms, ended by a newline', () => {
    let text = ''
    let clock = 0
    const report = curateProgressReporter({ isTTY: true, write: (t) => (text += t), now: () => clock })
    report({ step: 1, ...codedLine('curate.step1') })
    for (let i = 1; i <= 100; i++) {
      clock += 5
      report({ step: 1, ...codedLine('curate.reading'), done: i, total: 100, skill: `Skill ${i} ${'long '.repeat(20)}` })
    }
    const draws = text.split('\r\u001b[2K').slice(1)
    expect(draws.length).toBeGreaterThanOrEqual(10)
    expect(draws.length).toBeLessThanOrEqual(12) // every 50 ms of 500, and the end
    expect(draws[0]).toMatch(/^ {2}\[-+\] 1\/100 reading skills · Skill 1 long/)
    expect(draws[0]!.length).toBeLessThan(130) // the title is cut short
    expect(draws.at(-1)).toBe(`  [${'#'.repeat(24)}] 100/100 reading skills · Skill 100 ${'long '.repeat(20).trim().slice(0, 49)}…\n`)
    report({ step: 2, ...codedLine('curate.step2') })
    expect(text.endsWith('…\nStep 2: Cross-skill integration...\n')).toBe(true)
  })

  it('in the app: the count and the skill ride in the job message by code, in both languages', () => {
    // as the workbench sends them (core-modules' curateCountLine): the step's line a coded param of the count
    const line = (step: 'curate.checking' | 'curate.reading' | 'curate.comparing' | 'curate.consolidating', done: number, total: number, skill?: string) => {
      const count = { message: refOf(coded(step)), done, total }
      return skill ? codedLine('curate.progress_skill', { ...count, skill }) : codedLine('curate.progress_count', count)
    }
    const lines = [line('curate.checking', 3, 10, '排序数组'), line('curate.reading', 10, 10), line('curate.comparing', 4, 9), line('curate.consolidating', 1, 2, 'A + B')]
    expect(lines.map((l) => l.message)).toEqual(['checking skills — 3/10 · 排序数组', 'reading skills — 10/10', 'comparing skills — 4/9', 'consolidating clusters — 1/2 · A + B'])
    expect(lines.map((l) => translateLine(l, l.message, 'zh'))).toEqual(['正在检查技能 — 3/10 · 排序数组', '正在读取技能 — 10/10', '正在比较技能 — 4/9', '正在归并聚类 — 1/2 · A + B'])
    // reached by code only: the words alone are shown as they came ("foo — 1/2" is no counted line)
    expect(translateText('checking skills — 3/10 · 排序数组', 'zh')).toBe('checking skills — 3/10 · 排序数组')
  })
})
