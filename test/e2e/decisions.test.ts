/**
 * Curation's evidence and lasting decisions in Chromium (issue 36): an AGIAgent library whose agents keep
 * fetch_count. The cleanup card names what watched it and since when, the plan says what it could not judge yet, a
 * merge that retires a used skill warns, a rejected merge stays rejected when the plan is computed again and is
 * listed in History and, on the proposals, in Recently rejected; a rejection is taken back from the card's place
 * ("Rejected — Undo", by keyboard), from Recently rejected after the plan is computed again (by keyboard) or from History,
 * and the next plan keeps the proposal waiting — in English and 简体中文, audited by axe-core and photographed (artifacts/screenshots/decisions-*.png).
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, closeWorkbench, expectAccessible, go, HAS_CHROMIUM, openWorkbench, shot, tempAgentsRoot } from './harness'
import type { Browser, Served } from './harness'
import { DEPLOY, DEPLOY_NEAR, skillFileText, SORTING, SORTING_COPY } from '../curate/fixtures'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const DAY = 86_400_000
function localIso(daysAgo: number): string {
  const d = new Date(Date.now() - daysAgo * DAY)
  const p = (n: number): string => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T10:00:00.000000`
}

function writeRoot(root: string): void {
  const lib = path.join(root, 'dev', 'general', 'experience')
  fs.mkdirSync(lib, { recursive: true })
  const skills = [
    { id: '1790000101', title: 'Deploy with compose', body: DEPLOY, quality: 0.7, fetch: 6, lastUsed: localIso(1), created: localIso(60) },
    { id: '1790000102', title: 'Compose deployment checklist', body: DEPLOY_NEAR, quality: 0.5, fetch: 2, lastUsed: localIso(5), created: localIso(60) },
    { id: '1790000103', title: 'Sorting arrays', body: SORTING, quality: 0.7, created: localIso(60) },
    { id: '1790000104', title: 'Sorting arrays in TS', body: SORTING_COPY, quality: 0.4, created: localIso(60) },
    { id: '1790000105', title: 'Forgotten notes', body: 'Notes about a release nobody reads any more.', created: localIso(90) },
    { id: '1790000106', title: 'Fresh idea', body: 'Made two days ago: how to name feature flags.', created: localIso(2) }
  ]
  for (const s of skills) fs.writeFileSync(path.join(lib, `skill_${s.title}.md`), skillFileText(s))
}

describe.skipIf(!HAS_CHROMIUM)('evidence and lasting decisions in Chromium', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let fixture = ''

  beforeAll(async () => {
    fixture = tempAgentsRoot('decisions')
    writeRoot(fixture)
    ;({ served, browser, page } = await openWorkbench(fixture))
  }, 240_000)

  afterAll(() => closeWorkbench({ browser, served }, fixture))

  it('the cleanup card says what watched it; a merge retiring a used skill warns', async () => {
    await go(page, 'curate')
    await page.getByTestId('curate-start').click()
    const cleanup = page.getByTestId('group-cleanup')
    await cleanup.waitFor()
    expect(await cleanup.getByTestId('proposal-reason').textContent()).toMatch(
      /^Not used by any agent in the (89|90) days watched since it arrived on \d{4}-\d\d-\d\d \(at least 30 needed\)\. Watched by the fetch_count its agents’ query_skill keeps, since \d{4}-\d\d-\d\d\. It moves to the legacy folder \(restorable\)\.$/
    )
    expect(await cleanup.textContent()).not.toContain('Fresh idea')
    expect(await page.getByTestId('cleanup-coverage').textContent()).toContain('Not judged yet: 1 watched fewer than 30 days since they arrived.')
    const deploy = page.getByTestId('proposal').filter({ hasText: 'Compose deployment checklist' })
    expect(await deploy.getByTestId('used-retired').textContent()).toMatch(/Agents used “Compose deployment checklist” \(fetched 2 times, no use found in the logs read, last \d{4}-\d\d-\d\d\), and it moves to the legacy folder too: check that “Deploy with compose” covers it\./)
    await shot(page, 'decisions-01-curate-en')
    await expectAccessible(page, 'Curate with evidence (en)')
  })

  it('right after Reject the card’s place says "Rejected — Undo", focused: Enter takes the rejection back', async () => {
    const sorting = page.getByTestId('proposal').filter({ hasText: 'Sorting arrays in TS' })
    await sorting.getByTestId('proposal-reject').click()
    const place = page.getByTestId('rejected-place')
    await place.waitFor()
    expect(await place.getAttribute('role')).toBe('status')
    expect(await place.textContent()).toMatch(/^Rejected — Merge: Sorting arrays \+ Sorting arrays in TSUndo$/)
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('rejected-undo')
    await place.scrollIntoViewIfNeeded()
    await shot(page, 'decisions-02a-rejected-place-en')
    await expectAccessible(page, 'Curate, a proposal just rejected (en)')
    await page.keyboard.press('Enter')
    await page.getByTestId('unrejected-status').waitFor()
    await place.waitFor({ state: 'detached' })
    await sorting.getByTestId('proposal-review').waitFor()
    expect(await sorting.getByTestId('rejected-on').count()).toBe(0)
  })

  it('a rejected merge stays rejected when the plan is computed again, and History lists it', async () => {
    const sorting = page.getByTestId('proposal').filter({ hasText: 'Sorting arrays in TS' })
    await sorting.getByTestId('proposal-reject').click()
    await page.getByTestId('rejected-place').waitFor()
    await page.getByTestId('curate-start').click()
    await page.getByTestId('curate-progress').waitFor({ state: 'detached' }).catch(() => undefined)
    const again = page.getByTestId('proposal').filter({ hasText: 'Sorting arrays in TS' })
    await again.getByTestId('rejected-on').waitFor()
    expect(await again.getByTestId('rejected-on').textContent()).toMatch(/^Rejected \d{4}-\d\d-\d\d \d\d:\d\d by you\. It stays rejected until one of its skills changes or you undo the rejection \(Recently rejected, below\)\.$/)
    expect(await again.getByTestId('proposal-review').count()).toBe(0)
    await again.scrollIntoViewIfNeeded()
    await shot(page, 'decisions-02-rejected-en')
    await page.getByTestId('curate-tab-history').click()
    const history = page.getByTestId('rejected-history')
    await history.waitFor()
    expect(await history.getByTestId('rejected-entry').allTextContents()).toEqual([expect.stringContaining('Sorting arrays + Sorting arrays in TS')])
    await shot(page, 'decisions-03-history-en')
    await expectAccessible(page, 'Curate history with rejections (en)')
  })

  it('after the plan is computed again, Recently rejected (on the proposals) takes the rejection back by keyboard', async () => {
    await page.getByTestId('curate-tab-plan').click()
    const recent = page.getByTestId('recently-rejected')
    await recent.waitFor()
    expect(await recent.getByRole('heading', { level: 2 }).textContent()).toBe('Recently rejected (1)')
    expect(await recent.getByTestId('rejected-entry').allTextContents()).toEqual([expect.stringMatching(/^MergeSorting arrays \+ Sorting arrays in TSRejected \d{4}-\d\d-\d\d \d\d:\d\d by you\.Undo$/)])
    await recent.scrollIntoViewIfNeeded()
    await shot(page, 'decisions-04-recently-rejected-en')
    await expectAccessible(page, 'Curate, recently rejected (en)')
    // Tab from the plan's first control reaches its Undo; Enter takes the rejection back
    await page.getByTestId('curate-tab-plan').focus()
    const focused = (): Promise<string | null | undefined> => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))
    for (let i = 0; i < 80 && (await focused()) !== 'recently-rejected-undo'; i++) await page.keyboard.press('Tab')
    expect(await focused()).toBe('recently-rejected-undo')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Undo the rejection of Sorting arrays + Sorting arrays in TS')
    await page.keyboard.press('Enter')
    await page.getByTestId('unrejected-status').waitFor()
    await recent.waitFor({ state: 'detached' })
    const sorting = page.getByTestId('proposal').filter({ hasText: 'Sorting arrays in TS' })
    await sorting.getByTestId('proposal-review').waitFor()
    // rejected again, for History's Undo next
    await sorting.getByTestId('proposal-reject').click()
    await page.getByTestId('rejected-place').waitFor()
    await page.getByTestId('curate-tab-history').click()
    await page.getByTestId('rejected-history').waitFor()
  })

  it('History’s Undo takes a rejection back: the next plan keeps the proposal waiting', async () => {
    await page.getByTestId('rejected-history-undo').click()
    await page.getByTestId('unrejected-status').waitFor()
    await page.getByTestId('rejected-history').waitFor({ state: 'detached' })
    await page.getByTestId('curate-tab-plan').click()
    await page.getByTestId('curate-start').click()
    await page.getByTestId('curate-progress').waitFor({ state: 'detached' }).catch(() => undefined)
    const sorting = page.getByTestId('proposal').filter({ hasText: 'Sorting arrays in TS' })
    await sorting.getByTestId('proposal-review').waitFor()
    expect(await sorting.getByTestId('rejected-on').count()).toBe(0)
    // rejected again, for the Chinese walk
    await sorting.getByTestId('proposal-reject').click()
    await page.getByTestId('rejected-place').waitFor()
  })

  it('the same in 简体中文', async () => {
    await page.getByTestId('language-switch').selectOption('zh')
    await page.getByTestId('curate-tab-plan').click()
    const cleanup = page.getByTestId('group-cleanup')
    await cleanup.waitFor()
    await expect.poll(() => cleanup.getByTestId('proposal-reason').textContent()).toMatch(/^自 \d{4}-\d\d-\d\d 进入技能库以来，在有记录的 (89|90) 天里没有任何智能体使用它/)
    expect(await page.getByTestId('used-retired').textContent()).toContain('智能体使用过“Compose deployment checklist”')
    const place = page.getByTestId('rejected-place')
    expect(await place.textContent()).toBe('已拒绝 — 合并：Sorting arrays + Sorting arrays in TS撤销')
    expect(await place.getByTestId('rejected-undo').getAttribute('aria-label')).toBe('撤销对“Sorting arrays + Sorting arrays in TS”的拒绝')
    await place.scrollIntoViewIfNeeded()
    await shot(page, 'decisions-02a-rejected-place-zh')
    await expectAccessible(page, 'Curate, a proposal just rejected (zh)')
    await page.getByTestId('curate-start').click()
    await page.getByTestId('rejected-on').waitFor()
    expect(await page.getByTestId('rejected-on').textContent()).toMatch(/于 \d{4}-\d\d-\d\d \d\d:\d\d 拒绝/)
    await page.getByTestId('group-cleanup').scrollIntoViewIfNeeded()
    await shot(page, 'decisions-01-curate-zh')
    await expectAccessible(page, 'Curate with evidence (zh)')
    const recent = page.getByTestId('recently-rejected')
    expect(await recent.getByRole('heading', { level: 2 }).textContent()).toBe('最近拒绝的提议（1）')
    expect(await recent.getByTestId('recently-rejected-undo').textContent()).toBe('撤销')
    expect(await recent.getByTestId('recently-rejected-undo').getAttribute('aria-label')).toBe('撤销对“Sorting arrays + Sorting arrays in TS”的拒绝')
    await recent.scrollIntoViewIfNeeded()
    await shot(page, 'decisions-04-recently-rejected-zh')
    await page.getByTestId('curate-tab-history').click()
    await page.getByTestId('rejected-history').waitFor()
    expect(await page.getByTestId('rejected-history').textContent()).toContain('已拒绝的提议')
    expect(await page.getByTestId('rejected-history-undo').textContent()).toBe('撤销')
    await shot(page, 'decisions-03-history-zh')
    await expectAccessible(page, 'Curate history with rejections (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('no console errors', () => {
    expect(browser.consoleErrors).toEqual([])
  })
})
