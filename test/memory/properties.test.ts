import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { appendDaySections, cleanModelSummary, consolidatedDays, extractiveSummary } from '../../src/main/memory/consolidate'
import { addLesson } from '../../src/main/memory/lessons'
import { consolidateDailyLogs, MAX_MEMORY_FILE_BYTES } from '../../src/main/memory/memory-files'
import { extractPreferences } from '../../src/main/memory/preferences'
import { addProceduralRecord } from '../../src/main/memory/procedural'
import { parseEntries } from '../../src/main/memory/text'

const text = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '#', '-', '记', '住', '：', ':', '。', 'R', 'e', 'm', 'x', '`', '*'), maxLength: 200 })

describe('memory invariants (property tests)', () => {
  it('adding a lesson twice writes it once, keeps what was there, and never breaks the entry list', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 80 }), { maxLength: 8 }), fc.string({ minLength: 1, maxLength: 80 }), (existing, lesson) => {
        let doc: string | null = null
        for (const e of existing) {
          if (e.trim()) doc = addLesson(doc, e).text
        }
        if (!lesson.replace(/\s+/g, '')) return
        const once = addLesson(doc, lesson)
        const twice = addLesson(once.text, lesson)
        expect(twice.added).toBe(false)
        expect(twice.text).toBe(once.text)
        expect(once.text.startsWith(doc ?? '')).toBe(true)
        expect(parseEntries(once.text).length).toBe(parseEntries(doc ?? '').length + (once.added ? 1 : 0))
      }),
      { numRuns: 300 }
    )
  })
  it('procedural records are idempotent too', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z_]{1,12}$/), fc.string({ minLength: 1, maxLength: 120 }), (tool, reason) => {
        if (!reason.trim()) return
        const a = addProceduralRecord(null, { tool, reason })
        expect(addProceduralRecord(a.text, { tool, reason }).added).toBe(false)
      }),
      { numRuns: 300 }
    )
  })
  it('preference extraction never throws and gives short one-line non-empty entries', () => {
    fc.assert(
      fc.property(text, (t) => {
        for (const p of extractPreferences(t)) {
          expect(p).not.toContain('\n')
          expect(p.length).toBeGreaterThan(0)
          expect(p.length).toBeLessThanOrEqual(300)
        }
      }),
      { numRuns: 500 }
    )
  })
  it('whatever a summary says, long-term.md gains exactly the days appended, no others', () => {
    fc.assert(
      fc.property(text, text, (log, modelText) => {
        const summaries = [extractiveSummary(log) || '- nothing', (() => { try { return cleanModelSummary(modelText) } catch { return '- empty' } })()]
        const out = appendDaySections(null, [
          { day: '2026-01-10', summary: summaries[0]!, method: 'a' },
          { day: '2026-01-11', summary: summaries[1]!, method: 'b' }
        ])
        expect([...consolidatedDays(out)]).toEqual(['2026-01-10', '2026-01-11'])
      }),
      { numRuns: 300 }
    )
  })
})

describe('consolidation with a bad log', () => {
  it('an oversized day is reported as failed, the others are consolidated', async () => {
    const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-big-'))
    try {
      const logs = path.join(ws, 'memory', 'logs')
      fs.mkdirSync(logs, { recursive: true })
      fs.writeFileSync(path.join(logs, '2026-01-10.md'), Buffer.alloc(MAX_MEMORY_FILE_BYTES + 1, 'a'))
      fs.writeFileSync(path.join(logs, '2026-01-11.md'), 'the user asked for a chart and the agent produced chart.png with matplotlib\n')
      const r = await consolidateDailyLogs(ws, { now: new Date(2026, 0, 20) })
      expect(r.failed.map((f) => f.day)).toEqual(['2026-01-10'])
      expect(r.failed[0]!.error).toMatch(/limit/)
      expect(r.consolidated.map((c) => c.day)).toEqual(['2026-01-11'])
    } finally {
      fs.rmSync(ws, { recursive: true, force: true })
    }
  })
})
