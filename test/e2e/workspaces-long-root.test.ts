/**
 * A data root with a long path keeps the Workspaces header on one line: the path is cut with an ellipsis, the full
 * path stays in the picker's title and its accessible name, at 1024 px in English and 简体中文, audited by axe.
 * At the window's least width (900 px, the Electron window's minWidth) the header stays within its box in both
 * modes: the data root's, and an added agent's session folder with a long path (its library picker and two buttons).
 * Screenshots: artifacts/screenshots/ws-long-root-<en|zh>.png, ws-min-<root|session>-<en|zh>.png.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, closeWorkbench, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

/** The header's box and its children's: one line when every child sits within the first child's row. */
async function headerBoxes(page: Page): Promise<{ height: number; rows: number; tallest: number; overflow: number; scroll: number; worst: string }> {
  return page.getByTestId('screen-workspaces').locator('header.screen-header').evaluate((h) => {
    const kids = [...h.children].map((c) => c.getBoundingClientRect())
    // rows: the children's middles, sorted, a new row where one is lower than the last by half the tallest
    const mids = kids.map((k) => k.top + k.height / 2).sort((a, b) => a - b)
    const half = Math.max(...kids.map((k) => k.height)) / 2
    const rows = mids.filter((m, i) => i === 0 || m - mids[i - 1]! > half).length
    // nothing sticks out on either side (a picker squeezed past its label's box, a button past the header's edge)
    const box = h.getBoundingClientRect()
    const inner = [...h.querySelectorAll('*')].map((c) => ({ c, r: c.getBoundingClientRect() })).filter(({ r }) => r.width > 0)
    const out = inner.map(({ c, r }) => ({ what: `${c.tagName.toLowerCase()}${c.getAttribute('data-testid') ? '#' + c.getAttribute('data-testid') : ''}`, by: Math.max(r.right - box.right, box.left - r.left) }))
    const worst = out.reduce((a, b) => (b.by > a.by ? b : a), { what: '', by: 0 })
    const overflow = worst.by
    // nor past the screen's own box (a header wider than the screen is cut off there)
    const screen = h.parentElement!.getBoundingClientRect()
    return { height: box.height, rows, tallest: Math.max(...kids.map((k) => k.height)), overflow: Math.max(overflow, box.right - screen.right), scroll: h.scrollWidth - h.clientWidth, worst: worst.what }
  })
}

/** The Electron window's least width (src/main/app/window-options.ts). */
const MIN_WIDTH = 900

describe.skipIf(!HAS_CHROMIUM)('Workspaces with a long data-root path (web mode)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let fixture = ''

  beforeAll(async () => {
    // the server serves a copy named like the fixture's folder: a long name makes a long path
    fixture = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-e2e-longroot-')), `agents-data-${'a-rather-long-folder-name-'.repeat(6)}end`)
    fs.cpSync(path.join(PROJECT, 'test', 'fixtures', 'e2e-root'), fixture, { recursive: true })
    ;({ served, browser, page } = await openWorkbench(fixture, { timeoutMs: 20_000 }))
    await page.setViewportSize({ width: 1024, height: 768 })
  }, 240_000)

  afterAll(async () => {
    await closeWorkbench({ browser, served }, fixture)
  })

  for (const lang of ['en', 'zh'] as const) {
    it(`keeps the header on one line, the full path in the picker's title and description (${lang})`, async () => {
      await page.getByTestId('language-switch').selectOption(lang)
      await go(page, 'workspaces')
      const picker = page.getByTestId('root-picker')
      await expect.poll(() => picker.inputValue()).toContain('a-rather-long-folder-name-')
      const full = await picker.inputValue()
      expect(full.length).toBeGreaterThan(150)
      await page.getByTestId('task-row').first().waitFor()
      await shot(page, `ws-long-root-${lang}`)
      const box = await headerBoxes(page)
      expect(box.rows, JSON.stringify(box)).toBe(1)
      expect(box.height).toBeLessThanOrEqual(box.tallest + 1)
      expect(box.overflow, JSON.stringify(box)).toBeLessThanOrEqual(1)
      // the picker shows less than the path, says so with an ellipsis, and keeps the whole path for a pointer and a screen reader
      const shown = await picker.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent ?? '')
      expect(shown).toContain('…')
      expect(shown.length).toBeLessThan(full.length)
      expect(await picker.getAttribute('title')).toContain(full)
      expect(await picker.evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.title)).toBe(full)
      // a screen reader hears the label as the name and the whole path as the description
      const cdp = await page.context().newCDPSession(page)
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: { role?: { value: string }; name?: { value: string }; description?: { value: string } }[] }
      const described = nodes.find((n) => n.role?.value === 'combobox' && n.name?.value === (lang === 'en' ? 'Data root' : '数据根目录'))
      expect(described?.description?.value).toBe(full)
      await cdp.detach()
      await expectAccessible(page, `Workspaces with a long data root (${lang})`)
    })
  }

  for (const lang of ['en', 'zh'] as const) {
    it(`keeps the header within its box at the window's least width, data root and session folder (${lang})`, async () => {
      await page.setViewportSize({ width: MIN_WIDTH, height: 700 })
      try {
        await page.getByTestId('language-switch').selectOption(lang)
        await go(page, 'workspaces')
        const source = page.getByTestId('source-picker')
        await source.selectOption('')
        await page.getByTestId('task-row').first().waitFor()
        await shot(page, `ws-min-root-${lang}`)
        let box = await headerBoxes(page)
        expect(box.rows, JSON.stringify(box)).toBe(1)
        expect(box.overflow, JSON.stringify(box)).toBeLessThanOrEqual(1)
        expect(box.scroll, JSON.stringify(box)).toBeLessThanOrEqual(1)

        // an added session folder (so both buttons show: reflect all, remove) with a long path
        const sessions = path.join(path.dirname(fixture), `codex-sessions-${'a-rather-long-folder-name-'.repeat(4)}${lang}`)
        fs.cpSync(path.join(path.dirname(served.root), 'home', '.codex', 'sessions'), sessions, { recursive: true })
        const add = page.locator('details.add-source')
        if (!(await add.evaluate((d: HTMLDetailsElement) => d.open))) await add.locator('summary').click()
        await page.getByTestId('session-add-kind').selectOption('codex')
        await page.getByTestId('session-add-path').fill(sessions)
        await page.getByTestId('session-add').click()
        await page.getByTestId('session-remove').waitFor()
        await page.getByTestId('task-row').first().waitFor()
        await add.locator('summary').click() // closed again: the header is what is looked at
        await shot(page, `ws-min-session-${lang}`)
        box = await headerBoxes(page)
        expect(box.overflow, JSON.stringify(box)).toBeLessThanOrEqual(1)
        expect(box.scroll, JSON.stringify(box)).toBeLessThanOrEqual(1)
        expect(box.rows, JSON.stringify(box)).toBe(1)
        // every control of the header is reached by Tab, in order
        const ids = ['source-picker', 'session-target', 'session-reflect-all', 'session-remove']
        await source.focus()
        for (const id of ids.slice(1)) {
          await page.keyboard.press('Tab')
          expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(id)
        }
        // the buttons say what they do, their whole label for a screen reader even when it is cut on screen
        for (const id of ids.slice(2)) expect((await page.getByTestId(id).getAttribute('aria-label')) ?? (await page.getByTestId(id).textContent())).not.toBe('')
        await expectAccessible(page, `Workspaces, a session folder at ${MIN_WIDTH} px (${lang})`)
        await page.getByTestId('session-remove').click()
        await expect.poll(() => source.inputValue()).toBe('')
      } finally {
        await page.setViewportSize({ width: 1024, height: 768 })
      }
    })
  }
})
