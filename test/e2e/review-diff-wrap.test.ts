/**
 * The review diff wraps long lines on both sides (Chromium): the merge of the two calculator skills compares long
 * `title` and `usage_conditions` lines, and the BEFORE side used to keep them on one line cut off at its edge
 * ("… with safe division an…") while the AFTER side wrapped. Measured as the browser draws it, in a 900 px window
 * (the app's least width) and a wide one: both sides shown, and no drawn line of either side reaches past its pane.
 * Screenshots in English and Chinese (review-diff-wrap-*.png), axe clean.
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

interface Side {
  /** The side's text area (right of its line numbers) as drawn. */
  pane: { left: number; right: number; width: number }
  /** Drawn lines whose text reaches past the pane (or starts left of it), with their text. */
  over: { text: string; left: number; right: number }[]
  text: string
}

/** Each side of the dialog's diff as drawn: its text pane and the lines that stick out of it. */
async function measure(page: Page): Promise<{ original: Side | null; modified: Side | null }> {
  return page.evaluate(() => {
    const side = (selector: string): Side | null => {
      const editor = document.querySelector<HTMLElement>(`[data-testid="review-dialog"] .monaco-diff-editor ${selector}`)
      if (!editor || editor.offsetWidth === 0) return null
      const scrollable = editor.querySelector<HTMLElement>('.monaco-scrollable-element.editor-scrollable')
      if (!scrollable) return null
      const box = scrollable.getBoundingClientRect()
      // the vertical scrollbar and the overview ruler sit over the right edge: text must end before them
      const vertical = scrollable.querySelector<HTMLElement>('.scrollbar.vertical')
      const right = vertical && vertical.offsetWidth > 0 ? Math.min(box.right, vertical.getBoundingClientRect().left) : box.right
      const over: Side['over'] = []
      const spans = [...editor.querySelectorAll<HTMLElement>('.view-lines .view-line > span')]
      for (const span of spans) {
        const r = span.getBoundingClientRect()
        if (r.width === 0) continue
        if (r.right > right + 1 || r.left < box.left - 1) over.push({ text: (span.textContent ?? '').slice(0, 80), left: Math.round(r.left), right: Math.round(r.right) })
      }
      return { pane: { left: Math.round(box.left), right: Math.round(right), width: Math.round(right - box.left) }, over, text: spans.map((s) => s.textContent ?? '').join('\n') }
    }
    return { original: side('.editor.original'), modified: side('.editor.modified') }
  })
}

describe.skipIf(!HAS_CHROMIUM)('the review diff wraps both sides (Chromium)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page

  beforeAll(async () => {
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'test', 'fixtures', 'e2e-root')))
    await page.setViewportSize({ width: 900, height: 800 })
    await go(page, 'curate')
    await page.getByTestId('curate-start').click()
    await page.getByTestId('group-merge').waitFor({ timeout: 60_000 })
  }, 240_000)

  afterAll(async () => {
    await closeWorkbench({ browser, served })
  })

  async function openReview(): Promise<void> {
    const proposal = page.getByTestId('group-merge').getByTestId('proposal').filter({ hasText: 'alculator' }).first()
    await proposal.getByTestId('proposal-review').click()
    await page.getByTestId('review-dialog').locator('.monaco-diff-editor .editor.modified .view-line').first().waitFor()
    await page.waitForTimeout(400) // the diff computed and its decorations drawn
  }

  async function closeReview(): Promise<void> {
    await page.keyboard.press('Escape')
    await page.getByTestId('review-dialog').waitFor({ state: 'detached' })
  }

  async function expectBothWrapped(where: string): Promise<{ original: Side; modified: Side }> {
    let last: { original: Side | null; modified: Side | null } = { original: null, modified: null }
    // Monaco lays the sides out after the dialog settles: poll until both sides are drawn and nothing sticks out
    await expect
      .poll(async () => {
        last = await measure(page)
        return Boolean(last.original && last.modified && last.original.over.length === 0 && last.modified.over.length === 0)
      }, { timeout: 5_000 })
      .toBe(true)
      .catch(() => undefined)
    const { original, modified } = last
    expect(original, `${where}: the BEFORE side is shown`).not.toBeNull()
    expect(modified, `${where}: the AFTER side is shown`).not.toBeNull()
    expect(original!.pane.width, `${where}: the BEFORE side has room`).toBeGreaterThan(150)
    expect(original!.over, `${where}: BEFORE lines wider than their pane (${original!.pane.left}–${original!.pane.right})`).toEqual([])
    expect(modified!.over, `${where}: AFTER lines wider than their pane (${modified!.pane.left}–${modified!.pane.right})`).toEqual([])
    // the long title is drawn in full on the BEFORE side (on two rows, none cut at the pane's edge)
    expect(original!.text.replace(/\s+/g, ' ')).toContain('safe division and pytest unit tests')
    return { original: original!, modified: modified! }
  }

  it('at the least window width (900 px), in English and Chinese', async () => {
    await openReview()
    await expectBothWrapped('900 px, en')
    await snap(page, 'review-diff-wrap-900-en')
    await expectAccessible(page, 'Review diff at 900 px (en)')
    await closeReview()
    await page.getByTestId('language-switch').selectOption('zh')
    await openReview()
    await expectBothWrapped('900 px, zh')
    await snap(page, 'review-diff-wrap-900-zh')
    await expectAccessible(page, 'Review diff at 900 px (zh)')
    await closeReview()
    await page.getByTestId('language-switch').selectOption('en')
  }, 60_000)

  it('in a wide window, and after the window narrows and widens again with the dialog open', async () => {
    await page.setViewportSize({ width: 1600, height: 900 })
    await openReview()
    const wide = await expectBothWrapped('1600 px')
    await snap(page, 'review-diff-wrap-1600-en')
    await page.setViewportSize({ width: 900, height: 800 })
    await expectBothWrapped('narrowed to 900 px')
    await page.setViewportSize({ width: 1600, height: 900 })
    // the editor lays itself out again after the resize: wait for the pane to take its wide width back (on a busy
    // machine the first measure can come before that layout), then check the lines wrap in it
    await expect.poll(async () => (await measure(page)).original?.pane.width).toBe(wide.original.pane.width)
    const again = await expectBothWrapped('widened to 1600 px again')
    expect(again.original.pane.width).toBe(wide.original.pane.width)
    await expectAccessible(page, 'Review diff at 1600 px (en)')
    await closeReview()
    expect(browser.consoleErrors).toEqual([])
  }, 60_000)
})
