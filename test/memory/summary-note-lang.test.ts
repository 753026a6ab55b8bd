/**
 * The line under each day's heading in long-term.md (where its summary came from) is written in the user's language:
 * the app's language setting, `skillbench memory consolidate --lang zh`. The report (--json, the app's answer) keeps
 * its English `method`; English stays the default.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { LibraryInfo, MemoryConsolidateResult } from '../../src/shared/api'
import * as consolidate from '../../src/main/memory/consolidate'
import { consolidateDailyLogs } from '../../src/main/memory/memory-files'
import { benchesDisposedAfterEach } from '../workbench/helpers'

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'skillbench.cjs')
const LOG = '- user asked to rename the project folder and update imports\n- renamed src/app to src/core, 14 imports updated, build passes\n'
const NOW = new Date(2026, 0, 13, 12, 0, 0)

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

function workspace(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-note-lang-'))
  dirs.push(d)
  fs.mkdirSync(path.join(d, 'memory', 'logs'), { recursive: true })
  fs.writeFileSync(path.join(d, 'memory', 'logs', '2026-01-10.md'), LOG)
  return d
}

const longTerm = (ws: string): string => fs.readFileSync(path.join(ws, 'memory', 'long-term.md'), 'utf8')

const bench = benchesDisposedAfterEach()

describe("long-term.md's summary line in the user's language", () => {
  it('summaryNote: English by default, Chinese for zh, for both kinds of summary', () => {
    // read through the module, so the old sources still load and the other tests fail on behaviour
    const summaryNote = (consolidate as unknown as { summaryNote: (day: string, how: consolidate.SummaryMethod, lang?: 'en' | 'zh') => string }).summaryNote
    expect(summaryNote('2026-01-10', { kind: 'extractive' })).toBe('Summary of logs/2026-01-10.md (extractive, offline)')
    expect(summaryNote('2026-01-10', { kind: 'model', model: 'm1' })).toBe('Summary of logs/2026-01-10.md (LLM: m1)')
    expect(summaryNote('2026-01-10', { kind: 'extractive' }, 'zh')).toBe('logs/2026-01-10.md 的摘要（抽取式，离线）')
    expect(summaryNote('2026-01-10', { kind: 'model', model: 'm1' }, 'zh')).toBe('logs/2026-01-10.md 的摘要（模型：m1）')
  })

  it('consolidateDailyLogs with lang zh writes the Chinese line; the report keeps the English method', async () => {
    const ws = workspace()
    const r = await consolidateDailyLogs(ws, { now: NOW, lang: 'zh' })
    expect(r.consolidated).toEqual([{ day: '2026-01-10', method: 'Summary of logs/2026-01-10.md (extractive, offline)', chars: expect.any(Number) }])
    expect(longTerm(ws)).toContain('## 2026-01-10\n\n_logs/2026-01-10.md 的摘要（抽取式，离线）_\n\n- ')
    expect(longTerm(ws)).not.toContain('Summary of')
    const en = workspace()
    await consolidateDailyLogs(en, { now: NOW })
    expect(longTerm(en)).toContain('## 2026-01-10\n\n_Summary of logs/2026-01-10.md (extractive, offline)_\n\n- ')
  })

  it('skillbench memory consolidate --lang zh (a real process): the line in Chinese, --json unchanged; a bad --lang is bad usage', () => {
    const env = { ...process.env, NODE_OPTIONS: '', SKILLBENCH_FROM_SOURCE: '1', SKILLBENCH_LANG: '' }
    const run = (...argv: string[]): { status: number | null; stdout: string; stderr: string } =>
      spawnSync(process.execPath, [BIN, ...argv], { encoding: 'utf8', timeout: 60_000, env })
    const ws = workspace()
    const r = run('memory', 'consolidate', '--workspace', ws, '--lang', 'zh', '--json')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(JSON.parse(r.stdout).consolidated[0].method).toBe('Summary of logs/2026-01-10.md (extractive, offline)')
    expect(longTerm(ws)).toContain('_logs/2026-01-10.md 的摘要（抽取式，离线）_')
    const bad = run('memory', 'consolidate', '--workspace', workspace(), '--lang', 'fr')
    expect(bad.status).toBe(2)
  }, 60_000)

  it("the app's consolidate follows the language setting", async () => {
    const b = await bench()
    const lib = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'alice')!.path
    await b.call('memory.write', { library: lib, name: 'logs/2026-01-02.md', text: LOG, baseHash: null })
    await b.call('settings.update', { patch: { language: 'zh' } })
    const r = await b.call<MemoryConsolidateResult>('memory.consolidate', { library: lib })
    expect(r.consolidated.map((c) => c.day)).toEqual(['2026-01-02'])
    expect(fs.readFileSync(path.join(b.root, 'alice', 'memory', 'long-term.md'), 'utf8')).toContain('## 2026-01-02\n\n_logs/2026-01-02.md 的摘要（抽取式，离线）_\n')
  })
})
