/**
 * The Library map of the bundled sample data as the browser draws it, at the window's least width (900 px, minWidth in
 * src/main/app/window-options.ts) and a common one (1280 px), in English and 简体中文: every dot and every label wholly
 * inside the map's visible box, no label over a dot or another label (map-geometry.ts); the big real library's map is
 * measured the same way in overview-big-map.test.ts. Screenshots: artifacts/screenshots/map-sample-<width>-<en|zh>.png.
 */
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, closeWorkbench, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, SCREENSHOTS, shot } from './harness'
import type { Browser, Served } from './harness'
import { mapProblems, measureMap } from './map-geometry'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

describe.skipIf(!HAS_CHROMIUM)('the Library map of the sample data, drawn whole (Chromium)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page

  beforeAll(async () => {
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'resources', 'sample-data')))
  }, 240_000)

  afterAll(async () => closeWorkbench({ browser, served }))

  for (const width of [900, 1280])
    for (const lang of ['en', 'zh'] as const)
      it(`every dot and label inside the map, no label over a dot or a label (${width} px, ${lang})`, async () => {
        await page.setViewportSize({ width, height: 800 })
        await page.getByTestId('language-switch').selectOption(lang)
        await go(page, 'overview')
        const map = page.getByTestId('cluster-map')
        await map.waitFor()
        const g = await measureMap(page, map)
        expect(g.dots.length).toBeGreaterThan(3)
        expect(g.labels.length).toBeGreaterThan(0)
        expect(mapProblems(g)).toEqual([])
        await shot(page, `map-sample-${width}-${lang}`)
        await map.screenshot({ path: path.join(SCREENSHOTS, `map-sample-only-${width}-${lang}.png`) })
        await expectAccessible(page, `Overview of the sample data (${width} px, ${lang})`)
      }, 120_000)
})
