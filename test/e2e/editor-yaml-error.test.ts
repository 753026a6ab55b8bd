/**
 * A front matter that stops parsing while it is edited (Chromium): typing `: : bad` after the skill id used to show
 * the `yaml` library's own English ("Nested mappings are not allowed in compact mappings at line 1, column 11:",
 * in the Chinese UI too) counted from the `---` line. Now the editor says it as the store and `validate` do — by
 * code, in the UI's language, at the line of the file the editor shows — and marks that line in Monaco; the rating
 * panel says it cannot read its fields rather than that they were changed. English and Chinese, audited by axe
 * (editor-yaml-error-*.png).
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, closeWorkbench, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

/** Where the screenshots go besides artifacts/screenshots (SKILLBENCH_SHOTS_DIR, for a person to look at). */
const EXTRA_SHOTS = process.env.SKILLBENCH_SHOTS_DIR

async function snap(page: Page, name: string): Promise<void> {
  await shot(page, name)
  if (EXTRA_SHOTS) {
    fs.mkdirSync(EXTRA_SHOTS, { recursive: true })
    await page.screenshot({ path: path.join(EXTRA_SHOTS, `${name}.png`) })
  }
}

/** The editor's line numbers (as Monaco shows them) that carry an error squiggle. */
async function markedLines(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const editor = document.querySelector('[data-testid="code-editor"] .monaco-editor')
    if (!editor) return []
    const numbers = [...editor.querySelectorAll<HTMLElement>('.margin-view-overlays .line-numbers')].map((el) => ({ n: Number(el.textContent), r: el.getBoundingClientRect() }))
    const out = new Set<number>()
    for (const squiggle of editor.querySelectorAll<HTMLElement>('.view-overlays .squiggly-error')) {
      const r = squiggle.getBoundingClientRect()
      const mid = r.top + r.height / 2
      // a wrapped line's squiggle may sit on a continuation row, which has no number: the numbered row above it
      const row = numbers.filter((x) => x.r.top <= mid).sort((a, b) => b.r.top - a.r.top)[0]
      if (row) out.add(row.n)
    }
    return [...out].sort((a, b) => a - b)
  })
}

describe.skipIf(!HAS_CHROMIUM)('the skill editor says a YAML mistake by code, on its line (Chromium)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page

  beforeAll(async () => {
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'test', 'fixtures', 'e2e-root')))
  }, 240_000)

  afterAll(async () => {
    await closeWorkbench({ browser, served })
  })

  it('types `: : bad` after the skill id: the coded problem at that line, marked, in English and Chinese', async () => {
    await go(page, 'skills')
    await page.getByTestId('skill-row').filter({ hasText: 'Python calculator with safe division' }).getByTestId('skill-open').click()
    await page.getByTestId('screen-editor').waitFor()
    await page.getByTestId('fm-valid').waitFor()
    const editor = page.getByTestId('code-editor')
    const idLine = editor.locator('.view-line').filter({ hasText: 'skill_id:' })
    await idLine.click()
    await page.keyboard.press('End')
    await page.keyboard.type(': : bad')
    const issues = page.getByTestId('fm-issues')
    await issues.waitFor()
    // the file's line 2 (line 1 is the opening ---), as the editor numbers it
    const shown = await page.evaluate(() => {
      const line = [...document.querySelectorAll<HTMLElement>('[data-testid="code-editor"] .view-line')].find((l) => (l.textContent ?? '').includes('skill_id:'))
      const top = line?.getBoundingClientRect().top ?? -1
      const numbers = [...document.querySelectorAll<HTMLElement>('[data-testid="code-editor"] .line-numbers')]
      return Number(numbers.find((n) => Math.abs(n.getBoundingClientRect().top - top) < 2)?.textContent ?? 0)
    })
    expect(shown).toBe(2)
    const en = (await issues.textContent()) ?? ''
    expect(en).toBe('The front matter cannot be read: invalid YAML: a mapping or list is nested on the line of its key (start it on the next line) (at line 2, column 11)')
    expect(en).not.toMatch(/Nested mappings|compact mappings|:\s*$/)
    await expect.poll(() => markedLines(page)).toEqual([2])
    expect(await page.getByTestId('rating-blocked').textContent()).toBe('The rating fields cannot be read until the front matter in the editor is fixed: fix it (or revert), then rate.')
    await snap(page, 'editor-yaml-error-en')
    await expectAccessible(page, 'Editor with a YAML mistake (en)')

    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => issues.textContent()).toBe('头信息无法读取：YAML 无效：映射或列表嵌套在它的键所在的行上（请从下一行开始写）（第 2 行第 11 列）')
    const zh = (await issues.textContent()) ?? ''
    expect(zh).not.toMatch(/Nested|mapping/i)
    expect(await page.getByTestId('rating-blocked').textContent()).toBe('编辑器中的头信息修好之前无法读取评分相关字段：请先修好（或还原），再评分。')
    await expect.poll(() => markedLines(page)).toEqual([2])
    await snap(page, 'editor-yaml-error-zh')
    await expectAccessible(page, 'Editor with a YAML mistake (zh)')
    await page.getByTestId('language-switch').selectOption('en')

    // fixed again: the mark goes, the front matter is valid
    for (let i = 0; i < ': : bad'.length; i++) await page.keyboard.press('Backspace')
    await page.getByTestId('fm-valid').waitFor()
    await expect.poll(() => markedLines(page)).toEqual([])
    expect(browser.consoleErrors).toEqual([])
  }, 90_000)
})
