/**
 * The app's counted curation line ("{message} — {done}/{total}", "… · {skill}") is reached by code only: the
 * workbench sends curate.progress_count|_skill with the step's own line as a coded param, the renderer's job store
 * keeps it and words it in Chinese by code, and an unrelated text that merely looks like the template ("foo — 1/2")
 * is never read back as it. A real workbench on a copy of the sample data.
 */
import { describe, expect, it } from 'vitest'
import type { ApiEvent, JobInfo, LibraryInfo } from '../../src/shared/api'
import { englishText, type MessageRef } from '../../src/shared/error-codes'
import { messageRefOf } from '../../src/shared/message-match'
import { JobStore } from '../../src/renderer/api/job-store'
import { translateLine, translateText } from '../../src/renderer/i18n/messages-errors'
import { benchesDisposedAfterEach } from './helpers'

const bench = benchesDisposedAfterEach()

type Progress = Extract<ApiEvent, { type: 'job.progress' }>['progress']

describe('the counted curation line', () => {
  it('travels by code from the workbench to the job store and reads in Chinese; its words alone are not read back', async () => {
    const b = await bench()
    const library = (await b.call<LibraryInfo[]>('libraries.list')).find((l) => l.user === 'alice')!.path
    const job = await b.call<JobInfo>('curate.start', { library })
    await b.wb.waitForJob(job.jobId)
    const lines = b.events.flatMap((e) => (e.type === 'job.progress' && e.progress.jobId === job.jobId ? [e.progress] : []))
    const counted = lines.filter((p): p is Progress & MessageRef => p.messageCode === 'curate.progress_count' || p.messageCode === 'curate.progress_skill')
    expect(counted.length, 'a curation of the sample library reports counted lines').toBeGreaterThan(0)
    for (const p of counted) {
      const inner = p.params.message as MessageRef
      expect(inner.messageCode, p.message).toMatch(/^curate\./)
      expect([p.params.done, p.params.total]).toEqual([p.index, p.total])
      // the English the app shows is the code's own, and by code in Chinese the step's line is Chinese too
      expect(englishText(p)).toBe(p.message)
      expect(p.message).toMatch(/ — \d+\/\d+/)
      const zh = translateLine(p, p.message, 'zh')
      expect(zh, p.message).toContain(translateLine(inner, '', 'zh'))
      expect(zh).toMatch(new RegExp(` — ${p.params.done}/${p.params.total}`))
      expect(zh).not.toContain(englishText(inner))
      // the words alone are not this code (reached by code only)
      expect(String(messageRefOf(p.message)?.messageCode)).not.toMatch(/^curate\.progress_/)
    }

    // the job store keeps each line's code, so the Curate screen words its status line and log by code
    const store = new JobStore()
    for (const p of lines) store.apply({ type: 'job.progress', progress: p })
    const kept = store.getSnapshot()[job.jobId]!
    const last = counted[counted.length - 1]!
    expect(kept.lines.filter((l) => l.text === last.message).map((l) => l.ref)).toContainEqual({ messageCode: last.messageCode, params: last.params })
    expect(kept.lines.filter((l) => / — \d+\/\d+/.test(l.text)).every((l) => l.ref?.messageCode.startsWith('curate.progress_'))).toBe(true)
  })

  it('a text that merely looks like the template is shown as it came, not re-worded as a counted line', () => {
    for (const text of ['foo — 1/2', 'build — 3/4 · step', 'Rebase — 12/40']) {
      expect(messageRefOf(text), text).toBeNull()
      expect(translateText(text, 'zh')).toBe(text)
    }
  })
})
