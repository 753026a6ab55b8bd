/**
 * The Library map on a real library of about 900 skills (../shared/data/real/skills, read in place when it is read-only, else from a temporary copy), in English and
 * 简体中文, audited by axe; its named clusters have names that differ and boxes that overlap neither each other nor the map's edge. At 900 px
 * (the window's least width) and 1280 px, with and without the skills in no cluster: every dot and name as drawn wholly
 * inside the map's visible box, no name over a dot or another name (map-geometry.ts). Screenshots:
 * artifacts/screenshots/big-map-<en|zh>.png, big-map-<900|1280>-<en|zh>.png (the window), big-map-only-… and big-map-loose-… (the map).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { CHROMIUM, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, SCREENSHOTS, shot } from './harness'
import type { Browser, Served } from './harness'
import { mapProblems, measureMap } from './map-geometry'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

describe.skipIf(!HAS_CHROMIUM || !HAS_REAL_DATA)('the Library map of a big real library (web mode)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let library = realPath('skills')
  let copy = ''

  beforeAll(async () => {
    // read in place where it cannot be written (the app may keep its bookkeeping in a library); else a temporary copy
    try {
      fs.accessSync(library, fs.constants.W_OK)
      copy = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-e2e-bigmap-'))
      fs.cpSync(library, path.join(copy, 'skills'), { recursive: true })
      library = path.join(copy, 'skills')
    } catch {
      // read-only: in place
    }
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'test', 'fixtures', 'e2e-root'), { timeoutMs: 120_000 }))
    await go(page, 'settings')
    await page.getByTestId('folder-input').fill(library)
    await page.getByTestId('folder-input').press('Enter')
    await page.getByTestId('settings-libraries').filter({ hasText: library }).waitFor()
    await page.getByTestId('library-picker').selectOption(library)
  }, 300_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    if (copy) fs.rmSync(copy, { recursive: true, force: true })
  })

  for (const lang of ['en', 'zh'] as const) {
    it(`draws the map (${lang})`, async () => {
      await page.getByTestId('language-switch').selectOption(lang)
      await go(page, 'overview')
      const map = page.getByTestId('cluster-map')
      await map.waitFor()
      const nodes = await page.getByTestId('map-node').count()
      expect(nodes).toBeGreaterThan(20)
      await map.evaluate((el) => el.scrollIntoView({ block: 'center' }))
      // the named clusters: names that differ, spread around the ring, no two boxes overlapping, none outside the map
      const svg = await map.evaluate((el) => {
        const r = el.getBoundingClientRect()
        return { x0: r.left, x1: r.right, y0: r.top, y1: r.bottom }
      })
      const named = await map.locator('text.node-label').evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect()
          return { text: el.textContent ?? '', x0: r.left, x1: r.right, y0: r.top, y1: r.bottom }
        })
      )
      expect(named.length).toBeGreaterThanOrEqual(5)
      const names = named.map((l) => l.text.replace(/ \(\d+\)$/, ''))
      expect(new Set(names).size, names.join(', ')).toBe(names.length)
      const overlapping = named.flatMap((a, i) => named.slice(i + 1).filter((b) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1).map((b) => `${a.text} / ${b.text}`))
      expect(overlapping).toEqual([])
      for (const l of named) expect(l.x0 >= svg.x0 && l.x1 <= svg.x1 && l.y0 >= svg.y0 && l.y1 <= svg.y1, l.text).toBe(true)
      await shot(page, `big-map-${lang}`)
      await map.screenshot({ path: path.join(PROJECT, 'artifacts', 'screenshots', `big-map-only-${lang}.png`) })
      await expectAccessible(page, `Overview with the map of a big library (${lang})`)
      // the skills in no cluster, on request (by keyboard), and back
      const toggle = page.getByTestId('map-show-loose')
      await toggle.focus()
      await page.keyboard.press('Enter')
      await expect.poll(() => page.getByTestId('map-node').count()).toBeGreaterThan(nodes)
      await map.screenshot({ path: path.join(PROJECT, 'artifacts', 'screenshots', `big-map-loose-${lang}.png`) })
      await page.keyboard.press('Enter')
      await expect.poll(() => page.getByTestId('map-node').count()).toBe(nodes)
    }, 180_000)
  }

  // the map as drawn at the window's least width (900 px, window-options minWidth) and a common one: every dot and
  // name wholly inside the map's visible box, no name over a dot or another name; the skills in no cluster too
  for (const width of [900, 1280])
    for (const lang of ['en', 'zh'] as const)
      it(`draws every dot and name whole and apart (${width} px, ${lang})`, async () => {
        await page.setViewportSize({ width, height: 800 })
        await page.getByTestId('language-switch').selectOption(lang)
        await go(page, 'overview')
        const map = page.getByTestId('cluster-map')
        await map.waitFor()
        const clustered = await measureMap(page, map)
        expect(clustered.dots.length).toBeGreaterThan(20)
        expect(clustered.labels.length).toBeGreaterThanOrEqual(5)
        await shot(page, `big-map-${width}-${lang}`)
        await map.screenshot({ path: path.join(SCREENSHOTS, `big-map-only-${width}-${lang}.png`) })
        await page.getByTestId('map-show-loose').click()
        await expect.poll(() => page.getByTestId('map-node').count()).toBeGreaterThan(clustered.dots.length)
        const all = await measureMap(page, map)
        await map.screenshot({ path: path.join(SCREENSHOTS, `big-map-loose-${width}-${lang}.png`) })
        await page.getByTestId('map-show-loose').click()
        await expect.poll(() => page.getByTestId('map-node').count()).toBe(clustered.dots.length)
        expect([...mapProblems(clustered), ...mapProblems(all).map((p) => `with the skills in no cluster: ${p}`)]).toEqual([])
        await expectAccessible(page, `Overview with the map of a big library (${width} px, ${lang})`)
      }, 180_000)
})
