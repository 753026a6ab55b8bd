/**
 * The Deploy screen on a library of 130 skills: the table shows its first 50 rows, in the dry run's order, with
 * "Show 50 more" / "Show all 130" reached and used by keyboard alone, and "Show the first 50 only" back; in English
 * and 简体中文, audited by axe. Screenshots: artifacts/screenshots/deploy-many-<en|zh>[-all].png.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const COUNT = 130
const TOPICS = ['parse CSV exports', 'retry HTTP requests', 'build Docker images', 'write unit tests', 'rotate log files', 'migrate a database']

/** A SKILL.md library of COUNT skills, `skill-001` … */
function writeLibrary(dir: string): void {
  for (let i = 1; i <= COUNT; i++) {
    const name = `skill-${String(i).padStart(3, '0')}`
    fs.mkdirSync(path.join(dir, name), { recursive: true })
    const topic = TOPICS[i % TOPICS.length]!
    fs.writeFileSync(path.join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Use when you need to ${topic} (variant ${i}).\n---\n\n# ${name}\n\nSteps to ${topic}, variant ${i}.\n`)
  }
}

const rowNames = (p: Page): Promise<string[]> => p.getByTestId('deploy-row').evaluateAll((rs) => rs.map((r) => r.querySelector('th .strong')?.textContent ?? ''))
const focused = (p: Page): Promise<string | null> => p.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)

describe.skipIf(!HAS_CHROMIUM)('Deploy on a library of 130 skills (web mode)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let library = ''

  beforeAll(async () => {
    library = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-e2e-manylib-')))
    writeLibrary(library)
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'test', 'fixtures', 'e2e-root'), { timeoutMs: 30_000 }))
    await page.setViewportSize({ width: 1024, height: 768 })
    await go(page, 'settings')
    await page.getByTestId('folder-input').fill(library)
    await page.getByTestId('folder-input').press('Enter')
    await page.getByTestId('settings-libraries').filter({ hasText: library }).waitFor({ timeout: 20_000 })
    await page.getByTestId('library-picker').selectOption(library)
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    if (library) fs.rmSync(library, { recursive: true, force: true })
  })

  for (const lang of ['en', 'zh'] as const) {
    it(`shows the first 50 rows and the rest on request, by keyboard (${lang})`, async () => {
      const t = lang === 'en'
        ? { showing: 'Showing 50 of 130 skills', more: 'Show 50 more', all: 'Show all 130', fewer: 'Show the first 50 only' }
        : { showing: '显示 130 个技能中的 50 个', more: '再显示 50 个', all: '显示全部 130 个', fewer: '只显示前 50 个' }
      await page.getByTestId('language-switch').selectOption(lang)
      await go(page, 'deploy')
      await page.getByTestId('deploy-table').waitFor()
      await expect.poll(() => page.getByTestId('deploy-summary').textContent()).toMatch(/130/)
      // the table's end, with what follows it
      await page.getByTestId('deploy-table').evaluate((el) => (el.nextElementSibling ?? el).scrollIntoView({ block: 'end' }))
      await shot(page, `deploy-many-${lang}`)
      expect(await page.getByTestId('deploy-row').count()).toBe(50)
      // the dry run's order, its first 50
      const first = await rowNames(page)
      expect(first).toEqual(Array.from({ length: 50 }, (_, i) => `skill-${String(i + 1).padStart(3, '0')}`))
      expect(await page.getByTestId('deploy-more').getByRole('status').textContent()).toBe(t.showing)
      // by keyboard: Tab from the last row's button reaches "Show 50 more"; Enter shows them and keeps the focus there
      await page.getByTestId('deploy-disable-skill-050').focus()
      await page.keyboard.press('Tab')
      expect(await focused(page)).toBe('deploy-show-more')
      expect(await page.getByTestId('deploy-show-more').textContent()).toBe(t.more)
      expect(await page.getByTestId('deploy-show-all').textContent()).toBe(t.all)
      await page.keyboard.press('Enter')
      await expect.poll(() => page.getByTestId('deploy-row').count()).toBe(100)
      expect(await focused(page)).toBe('deploy-show-more')
      // the rest: the buttons give way to "Show the first 50 only", which takes the focus
      await page.keyboard.press('Tab')
      expect(await focused(page)).toBe('deploy-show-all')
      await page.keyboard.press('Enter')
      await expect.poll(() => page.getByTestId('deploy-row').count()).toBe(COUNT)
      expect(await rowNames(page)).toEqual(Array.from({ length: COUNT }, (_, i) => `skill-${String(i + 1).padStart(3, '0')}`))
      await expect.poll(() => focused(page)).toBe('deploy-show-fewer')
      expect(await page.getByTestId('deploy-show-fewer').textContent()).toBe(t.fewer)
      await page.getByTestId('deploy-more').evaluate((el) => el.scrollIntoView({ block: 'end' }))
      await shot(page, `deploy-many-${lang}-all`)
      await expectAccessible(page, `Deploy, 130 skills all shown (${lang})`)
      await page.keyboard.press('Enter')
      await expect.poll(() => page.getByTestId('deploy-row').count()).toBe(50)
      await expect.poll(() => focused(page)).toBe('deploy-show-more')
      await expectAccessible(page, `Deploy, first 50 of 130 (${lang})`)
    })
  }
})
