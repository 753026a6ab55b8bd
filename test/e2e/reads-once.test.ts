/**
 * One change made in the page reads the skill list once (Chromium, web mode, the real server): the change's own
 * re-read, and no second one from the file watcher reporting the app's own writes back (`files.changed`). The
 * signal that no echo is still to come is a fence: after each change another process adds a skill file; once the
 * page shows it, the watcher has reported everything before it. The test also reads the server's event stream
 * itself: the only library path reported from the change to the fence is the fence's.
 */
import fs from 'node:fs'
import type http from 'node:http'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { ApiEvent, LibraryInfo, SkillListResult } from '../../src/shared/api'
import { CHROMIUM, go, HAS_CHROMIUM, openWorkbench, PROJECT } from './harness'
import type { Browser, Served } from './harness'
import { followEvents } from './serve'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

describe.skipIf(!HAS_CHROMIUM)('a change made in the page reads the skill list once (Chromium)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let library = ''
  let base = ''
  let token = ''
  let stream: http.ClientRequest | undefined
  const events: ApiEvent[] = []
  /** Every skills.list request the page made for the library. */
  const reads: number[] = []

  const api = async <T>(method: string, input: unknown): Promise<T> => {
    const res = await fetch(`${base}api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-skillbench-token': token }, body: JSON.stringify(input) })
    if (!res.ok) throw new Error(`${method}: ${await res.text()}`)
    return (await res.json()) as T
  }
  const reported = (from: number): string[] => events.slice(from).flatMap((e) => (e.type === 'files.changed' && e.library === library ? e.paths : []))

  let fences = 0
  /** Another process (this test) adds a skill file; resolves once the page lists it. */
  async function fence(): Promise<string> {
    const n = ++fences
    const name = `skill_fence ${n}.md`
    fs.writeFileSync(
      path.join(library, name),
      `---\nskill_id: '17720001${String(n).padStart(2, '0')}'\ntitle: Fence ${n}\nusage_conditions: A fence.\nquality_index: 0.5\nfetch_count: 0\n---\n\nFence.\n`
    )
    await page.getByTestId('skill-row').filter({ hasText: `Fence ${n}` }).waitFor({ timeout: 20_000 })
    return name
  }

  beforeAll(async () => {
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'test', 'fixtures', 'e2e-root')))
    const url = new URL(served.url)
    token = url.searchParams.get('token')!
    base = `${url.origin}/`
    library = (await api<LibraryInfo[]>('libraries.list', {})).find((l) => l.exists && l.path.endsWith(path.join('general', 'experience')))!.path
    stream = await followEvents(base, token, events)
    page.on('request', (r) => {
      if (r.url().endsWith('/api/skills.list') && (r.postData() ?? '').includes(JSON.stringify(library).slice(1, -1))) reads.push(Date.now())
    })
    // one skill retired before the page lists them (through the server: the app's own change)
    const { skills } = await api<SkillListResult>('skills.list', { library })
    await api('skills.delete', { library, skillId: skills.find((s) => s.title.startsWith('Calculator in Python'))!.skill_id })
  }, 240_000)

  afterAll(async () => {
    stream?.destroy()
    await browser?.close()
    await served?.stop()
  })

  it('restore on the Skills screen, then its undo: one read each', async () => {
    await go(page, 'skills')
    await page.getByTestId('skill-legacy-filter').selectOption('all')
    await expect.poll(() => page.getByTestId('skill-row').count(), { timeout: 20_000 }).toBe(2)
    // the watcher is in place (and the list current) once a fence shows
    await fence()

    for (const step of ['restore', 'undo'] as const) {
      const before = reads.length
      const from = events.length
      const read = page.waitForResponse((r) => r.url().endsWith('/api/skills.list'))
      if (step === 'restore') {
        await page.getByTestId('skill-row').filter({ hasText: 'Calculator in Python' }).click()
        await page.getByTestId('skill-restore').click()
        await page.getByTestId('restored-banner').waitFor()
      } else {
        await page.getByTestId('restore-undo').click()
        await page.getByTestId('restored-banner').waitFor({ state: 'detached' })
      }
      await read // the change's own read has answered
      const name = await fence()
      // the change read the list once, and the fence once; the server reported only the fence
      expect(reads.length - before, `${step}: skills.list reads`).toBe(2)
      await expect.poll(() => reported(from), { timeout: 20_000 }).toContain(name)
      expect(reported(from), `${step}: paths reported`).toEqual([name])
    }
  }, 120_000)

  it('no console errors', () => {
    expect(browser.consoleErrors).toEqual([])
  })
})
