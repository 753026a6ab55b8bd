/**
 * A data root with a long path keeps the Workspaces header on one line: the path is cut with an ellipsis, the full
 * path stays in the picker's title and its accessible name, at 1024 px in English and 简体中文, audited by axe.
 * Screenshots: artifacts/screenshots/ws-long-root-<en|zh>.png.
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
async function headerBoxes(page: Page): Promise<{ height: number; rows: number; tallest: number; overflow: number }> {
  return page.getByTestId('screen-workspaces').locator('header.screen-header').evaluate((h) => {
    const kids = [...h.children].map((c) => c.getBoundingClientRect())
    const tops = new Set(kids.map((k) => Math.round(k.top + k.height / 2)))
    // nothing sticks out on the right either (a picker squeezed past its label's box)
    const inner = [...h.querySelectorAll('*')].map((c) => c.getBoundingClientRect().right)
    const overflow = Math.max(0, ...inner.map((r) => r - h.getBoundingClientRect().right))
    return { height: h.getBoundingClientRect().height, rows: tops.size, tallest: Math.max(...kids.map((k) => k.height)), overflow }
  })
}

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
})
