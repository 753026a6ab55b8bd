/**
 * The Memory screen tells one story about preferences, on the bundled sample data (a temporary copy), in Chromium:
 * "Learn from tasks" proposes the preference alice stated (记住：代码注释用中文), and the "Preferences waiting for
 * review" block counts and lists that same proposal, with "Review on Curate" opening the Curate screen on it alone;
 * "Find preferences in task logs" does not queue it a second time. Accepted there, it leaves the waiting block and
 * shows in "Preferences in long-term memory" (long-term.md's preferences block). By keyboard, in English and 简体中文,
 * audited by axe-core (artifacts/screenshots/memoryprefs-*.png).
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, closeWorkbench, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const PREFERENCE = '代码注释用中文'

describe.skipIf(!HAS_CHROMIUM)('preferences on the Memory screen, sample data (Chromium)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page

  beforeAll(async () => {
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'resources', 'sample-data')))
    await page.setViewportSize({ width: 1280, height: 900 })
  }, 240_000)

  afterAll(async () => closeWorkbench({ browser, served }))

  const press = async (testId: string, key = 'Enter'): Promise<void> => {
    await page.getByTestId(testId).first().focus()
    await page.keyboard.press(key)
  }
  /** A picture of the Memory screen from "Learn from tasks" down (its two preference blocks below it). */
  const memoryShot = async (name: string): Promise<void> => {
    await page.getByTestId('memory-learn').evaluate((el) => el.scrollIntoView({ block: 'start' }))
    await shot(page, name)
  }
  const activeTestId = (): Promise<string | null> => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)

  it('Learn from tasks: the preference it proposes is the one the waiting block counts and lists (en, zh)', async () => {
    await go(page, 'memory')
    await press('memory-learn-start')
    const result = page.getByTestId('memory-learn-result')
    await result.waitFor({ timeout: 30_000 })
    await expect.poll(() => page.locator('#prefs-title').textContent(), { timeout: 10_000 }).toMatch(/\(1\)$/)
    await memoryShot('memoryprefs-learned-en')
    const said = (await result.textContent()) ?? ''
    expect(said).toMatch(/^4 task\(s\) read: 1 proposal\(s\) for review \(0 lesson\(s\), 1 preference\(s\), 0 tool note\(s\)\)/)
    const learned = Number(/(\d+) preference\(s\)/.exec(said)![1])
    // the same number, the same preference: waiting, reviewed on Curate
    expect(await page.locator('#prefs-title').textContent()).toBe(`Preferences waiting for review (${learned})`)
    const rows = page.getByTestId('memory-pref-proposed')
    expect(await rows.count()).toBe(learned)
    expect(await rows.first().locator('.strong').textContent()).toBe(PREFERENCE)
    expect(await rows.first().textContent()).toContain('Proposed by Learn from tasks, stated in 1 task(s) · reviewed on the Curate screen')
    expect(await page.getByTestId('memory-preferences').getByText('No preference waits for review.').count()).toBe(0)
    expect(await page.locator('#longterm-prefs-title').textContent()).toBe('Preferences in long-term memory (0)')
    await expectAccessible(page, 'Memory after Learn from tasks (en)')

    // looking for preferences the other way finds the same one and does not queue it twice
    await press('memory-capture')
    await expect.poll(() => page.getByTestId('memory-capture-result').textContent(), { timeout: 20_000 }).toBe('Found 1, 0 new for review.')
    expect(await page.getByTestId('memory-pref').count()).toBe(0)
    expect(await page.locator('#prefs-title').textContent()).toBe('Preferences waiting for review (1)')

    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => page.locator('#prefs-title').textContent()).toBe('待审阅的偏好（1）')
    expect(await result.textContent()).toMatch(/^已读取 4 个任务：1 条提议待审阅（0 条教训、1 条偏好、0 条工具说明）/)
    expect(await rows.first().textContent()).toContain('由“从任务中学习”提出，在 1 个任务中说过 · 在“整理”页面审阅')
    expect(await rows.first().getByTestId('memory-pref-curate').textContent()).toBe('去“整理”页面审阅')
    expect(await page.locator('#longterm-prefs-title').textContent()).toBe('长期记忆中的偏好（0）')
    await memoryShot('memoryprefs-learned-zh')
    await expectAccessible(page, 'Memory after Learn from tasks (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  }, 120_000)

  it('Review on Curate opens the Curate screen on that proposal alone; accepted, it shows in long-term memory (en, zh)', async () => {
    await press('memory-pref-curate')
    await page.getByTestId('screen-curate').waitFor()
    await page.getByTestId('curate-only').waitFor({ timeout: 10_000 })
    const cards = page.getByTestId('proposal')
    await expect.poll(() => cards.count()).toBe(1)
    expect(await cards.first().textContent()).toContain(PREFERENCE)
    expect(await page.getByTestId('curate-only').textContent()).toBe('Showing the one proposal opened from the Memory screen.')
    await expect.poll(activeTestId).toBe('curate-only')
    await expectAccessible(page, 'Curate on one proposal (en)')
    await shot(page, 'memoryprefs-curate-en')
    // by keyboard: Show all, then the proposal's Review…
    await page.keyboard.press('Tab')
    expect(await activeTestId()).toBe('curate-show-all')
    await page.keyboard.press('Tab')
    expect(await activeTestId()).toBe('proposal-review')
    await page.keyboard.press('Enter')
    await page.getByTestId('review-dialog').waitFor()
    await press('review-accept')
    await expect.poll(() => cards.first().textContent(), { timeout: 15_000 }).toContain('applied')
    expect(fs.readFileSync(path.join(served.root, 'alice', 'memory', 'long-term.md'), 'utf8')).toContain(`## Preferences / 用户偏好\n\n- ${PREFERENCE}\n`)
    // the whole plan again
    await press('curate-show-all')
    await expect.poll(() => page.getByTestId('curate-only').count()).toBe(0)

    await go(page, 'memory')
    await expect.poll(() => page.locator('#longterm-prefs-title').textContent(), { timeout: 10_000 }).toBe('Preferences in long-term memory (1)')
    expect(await page.getByTestId('memory-longterm-pref').allTextContents()).toEqual([PREFERENCE])
    expect(await page.locator('#prefs-title').textContent()).toBe('Preferences waiting for review (0)')
    expect(await page.getByTestId('memory-pref-proposed').count()).toBe(0)
    await memoryShot('memoryprefs-accepted-en')
    await expectAccessible(page, 'Memory after accepting on Curate (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => page.locator('#longterm-prefs-title').textContent()).toBe('长期记忆中的偏好（1）')
    expect(await page.locator('#prefs-title').textContent()).toBe('待审阅的偏好（0）')
    await memoryShot('memoryprefs-accepted-zh')
    await expectAccessible(page, 'Memory after accepting on Curate (zh)')
    await page.getByTestId('language-switch').selectOption('en')
    expect(browser.consoleErrors).toEqual([])
  }, 120_000)
})
