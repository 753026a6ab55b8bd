/**
 * The bundled sample data read as a newcomer reads it, where its numbers used to contradict each other: skills fetched
 * 5, 3 and 1 times that no agent log read shows used. Every screen tells one story from the two sources, each named
 * (the Skills column, the editor's panel, the Overview's never-used list, the Curate warning), and none says "no use
 * found" of a fetched skill. The Overview's counts agree with the other screens: the card of tasks a reflect run makes
 * no skill of says so, a merge accepted then undone is counted as pending again (as Curate offers it for review),
 * skills reflection just made are "created" in the recent activity, and a deploy has words of its own. In English and
 * 简体中文, audited by axe-core, photographed (artifacts/screenshots/usage-counts-*.png).
 */
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, closeWorkbench, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const CALC = 'Calculator in Python with division-by-zero handling and unit tests'

describe.skipIf(!HAS_CHROMIUM)('one story of use and counts that agree, on the sample data (Chromium)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page

  beforeAll(async () => {
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'resources', 'sample-data')))
  }, 240_000)

  afterAll(async () => closeWorkbench({ browser, served }))

  const lang = async (l: 'en' | 'zh'): Promise<void> => {
    await page.getByTestId('language-switch').selectOption(l)
  }
  /** The Overview's count cards as { label: value }. */
  const counts = async (): Promise<Record<string, string>> =>
    Object.fromEntries(
      await page.getByTestId('overview-counts').locator('.card').evaluateAll((cards) => cards.map((c) => [c.querySelector('.card-label')!.textContent!, c.querySelector('.card-value')!.textContent!]))
    )
  /** The Skills list's usage cell of each row, by title. */
  const cells = async (): Promise<Record<string, string>> =>
    Object.fromEntries(await page.getByTestId('skill-row').evaluateAll((rows) => rows.map((r) => [r.querySelector('[data-testid="skill-open"]')!.textContent!, r.querySelector('[data-testid="skill-usage"]')!.textContent!])))

  it('Overview before reflecting: the card counts the tasks that make no skill, and says so', async () => {
    await page.getByTestId('next-steps').waitFor()
    expect(await page.getByTestId('next-reflect').textContent()).toBe('Reflect 3 new tasks')
    expect(await counts()).toMatchObject({ Tasks: '4', 'Reflected tasks': '0', 'Tasks that make no skill': '1' })
    await shot(page, 'usage-counts-01-overview-en')
    await expectAccessible(page, 'Overview on the sample data (en)')
    await lang('zh')
    await expect.poll(() => counts()).toMatchObject({ 任务: '4', 已反思任务: '0', 不会生成技能的任务: '1' })
    await shot(page, 'usage-counts-01-overview-zh')
    await expectAccessible(page, 'Overview on the sample data (zh)')
    await lang('en')
  })

  it('Skills: a fetched skill says how often it was fetched and that the logs read show no use', async () => {
    await go(page, 'skills')
    await page.getByTestId('skill-usage').first().waitFor()
    await expect.poll(() => cells()).toEqual({
      网页抓取时的重试与限速: 'fetched 5 timesno use found in the logs read',
      'Python command-line calculator with safe division and pytest tests': 'fetched 3 timesno use found in the logs read',
      [CALC]: 'fetched onceno use found in the logs read',
      'Convert a Word document to PDF with LibreOffice': 'no use foundnever fetched, none in the logs read'
    })
    await shot(page, 'usage-counts-02-skills-en')
    await expectAccessible(page, 'Skills (en)')
    await lang('zh')
    await expect.poll(() => cells()).toMatchObject({ [CALC]: '被调用 1 次已读取的日志中未发现使用', 'Convert a Word document to PDF with LibreOffice': '未发现使用从未被调用，已读取的日志中也没有' })
    await shot(page, 'usage-counts-02-skills-zh')
    await expectAccessible(page, 'Skills (zh)')
    await lang('en')
  })

  it('the editor: fetched once on 2026-10-20, no use found in the logs read; no "No use found" under "Fetches 1"', async () => {
    await page.getByTestId('skill-open').filter({ hasText: CALC }).click()
    const panel = page.getByTestId('usage-panel')
    await expect.poll(() => panel.getByTestId('usage-verdict').textContent()).toBe('Fetched once, last 2026-10-20 (the fetch_count its agents’ query_skill keeps); no use found in the logs read.')
    expect(await panel.textContent()).not.toMatch(/No use found|No agent used it/)
    await page.locator('.monaco-editor').first().waitFor()
    await panel.scrollIntoViewIfNeeded()
    await shot(page, 'usage-counts-03-editor-en')
    await expectAccessible(page, 'Editor usage panel (en)')
    await lang('zh')
    await expect.poll(() => panel.getByTestId('usage-verdict').textContent()).toBe('被调用 1 次，最近一次在 2026-10-20（智能体的 query_skill 记录的 fetch_count）；已读取的日志中未发现使用。')
    await shot(page, 'usage-counts-03-editor-zh')
    await expectAccessible(page, 'Editor usage panel (zh)')
    await lang('en')
  })

  it('the Overview’s never-used list names each source: "never used" only for the skill never fetched', async () => {
    await go(page, 'overview')
    const lists = page.getByTestId('usage-lists')
    await lists.getByTestId('usage-unused').waitFor()
    await expect.poll(() => lists.getByTestId('usage-unused').textContent()).not.toContain('Reading')
    const items = await lists.getByTestId('usage-unused-item').evaluateAll((els) => els.map((e) => [e.querySelector('.strong')!.textContent!, e.querySelector('.cell-sub')!.textContent!]))
    // which skills are past 30 days depends on today's date; what each says does not
    const said: Record<string, string> = {
      'Convert a Word document to PDF with LibreOffice': 'never used',
      [CALC]: 'fetched once, last 2026-10-20; no use found in the logs read',
      'Python command-line calculator with safe division and pytest tests': 'fetched 3 times, last 2026-10-28; no use found in the logs read',
      网页抓取时的重试与限速: 'fetched 5 times, last 2026-11-02; no use found in the logs read'
    }
    expect(items.length).toBeGreaterThan(0)
    for (const [title, text] of items) expect(text, title).toBe(said[title!])
    await lists.scrollIntoViewIfNeeded()
    await shot(page, 'usage-counts-04-unused-en')
    await expectAccessible(page, 'Overview usage lists (en)')
    await lang('zh')
    await expect.poll(() => lists.getByTestId('usage-unused-item').first().locator('.cell-sub').textContent()).toMatch(/从未使用|被调用/)
    await lists.scrollIntoViewIfNeeded()
    await shot(page, 'usage-counts-04-unused-zh')
    await expectAccessible(page, 'Overview usage lists (zh)')
    await lang('en')
  })

  it('after reflecting, the skills just made are "created" in the recent activity, not "updated"', async () => {
    await go(page, 'reflect')
    await page.getByTestId('reflect-all').click()
    await expect.poll(() => page.getByTestId('reflect-state').textContent(), { timeout: 60_000 }).toBe('Done')
    await go(page, 'overview')
    const recent = page.getByTestId('overview-recent')
    await expect.poll(async () => (await recent.locator('li').allTextContents()).filter((l) => l.includes('Skill created')).length).toBe(3)
    const lines = await recent.locator('li').allTextContents()
    expect(lines.filter((l) => /Skill updated/.test(l))).toEqual([])
    expect(await counts()).toMatchObject({ Tasks: '4', 'Reflected tasks': '3', 'Tasks that make no skill': '1' })
  })

  it('Curate: the merge retiring a fetched skill says it was fetched, and that the logs show no use', async () => {
    await go(page, 'curate')
    await page.getByTestId('curate-start').click()
    const merge = page.getByTestId('group-merge')
    await merge.waitFor({ timeout: 60_000 })
    const card = merge.getByTestId('proposal').filter({ hasText: CALC }).first()
    expect(await card.getByTestId('used-retired').textContent()).toContain(`Agents used “${CALC}” (fetched once, no use found in the logs read, last 2026-10-20)`)
    await shot(page, 'usage-counts-05-curate-en')
    await expectAccessible(page, 'Curate (en)')
    await lang('zh')
    await expect.poll(() => card.getByTestId('used-retired').textContent()).toContain(`智能体使用过“${CALC}”（被调用 1 次，已读取的日志中未发现使用，最近一次 2026-10-20）`)
    await shot(page, 'usage-counts-05-curate-zh')
    await expectAccessible(page, 'Curate (zh)')
    await lang('en')
  })

  it('a merge accepted then undone is back in the plan, and the Overview counts it as pending again', async () => {
    const waiting = async (): Promise<number> => page.getByTestId('screen-curate').getByTestId('proposal-review').count()
    const before = await waiting()
    expect(before).toBeGreaterThan(0)
    await page.getByTestId('group-merge').getByTestId('proposal').filter({ hasText: CALC }).first().getByTestId('proposal-review').click()
    const dialog = page.getByTestId('review-dialog')
    await dialog.getByTestId('review-accept').click()
    await dialog.waitFor({ state: 'detached' })
    const banner = page.getByTestId('applied-banner')
    await banner.getByTestId('applied-undo').click()
    await banner.waitFor({ state: 'detached' })
    await page.getByTestId('undone-status').waitFor()
    await expect.poll(() => waiting()).toBe(before)
    await shot(page, 'usage-counts-06-undone-en')
    await go(page, 'overview')
    await expect.poll(async () => (await counts())['Pending proposals']).toBe(String(before))
    expect(await page.getByTestId('next-review').textContent()).toBe(before === 1 ? 'Review the proposal' : `Review ${before} proposals`)
    expect(await page.getByTestId('next-review').getAttribute('class')).toContain('btn-primary')
    expect(await page.getByTestId('overview-recent').locator('li').first().textContent()).toContain('Undone: merging skills')
    await shot(page, 'usage-counts-07-overview-undone-en')
    await expectAccessible(page, 'Overview after an undo (en)')
    await lang('zh')
    await expect.poll(async () => (await counts())['待处理提议']).toBe(String(before))
    expect(await page.getByTestId('overview-recent').locator('li').first().textContent()).toContain('已撤销：合并技能')
    await shot(page, 'usage-counts-07-overview-undone-zh')
    await expectAccessible(page, 'Overview after an undo (zh)')
    await lang('en')
  }, 120_000)

  it('a deploy in the recent activity reads as one, in English and Chinese', async () => {
    await go(page, 'deploy')
    await page.getByTestId('deploy-table').waitFor()
    await page.getByTestId('deploy-run').click()
    // through its confirmation (the server's home is a temporary folder: its Claude Code folder, never the real one)
    const confirm = page.getByTestId('deploy-confirm')
    await confirm.waitFor()
    await expect.poll(() => confirm.getByTestId('deploy-confirm-run').isEnabled()).toBe(true)
    await confirm.getByTestId('deploy-confirm-run').click()
    await confirm.waitFor({ state: 'detached' })
    await page.getByTestId('deploy-done').waitFor()
    await go(page, 'overview')
    const recent = page.getByTestId('overview-recent')
    await expect.poll(() => recent.locator('li').first().textContent()).toContain('Skills deployed to an agent by you')
    expect(await recent.textContent()).not.toMatch(/deploy applied/i)
    await recent.scrollIntoViewIfNeeded()
    await shot(page, 'usage-counts-08-recent-en')
    await expectAccessible(page, 'Overview with a deploy (en)')
    await lang('zh')
    await expect.poll(() => recent.locator('li').first().textContent()).toContain('你将技能部署到了智能体')
    await recent.scrollIntoViewIfNeeded()
    await shot(page, 'usage-counts-08-recent-zh')
    await expectAccessible(page, 'Overview with a deploy (zh)')
    await lang('en')
  })

  it('logged no errors in the page', () => {
    expect(browser.consoleErrors.filter((e) => !/favicon|Failed to load resource: the server responded with a status of/.test(e))).toEqual([])
  })
})
