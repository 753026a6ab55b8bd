/**
 * Settings and the Overview when the settings file an earlier version left remembers data roots with a problem
 * (Chromium, English and Chinese, axe): each root's row says its problem instead of "0 user(s), 0 task(s)" — a
 * folder that is not there, a skill library, the bundled sample data — and the bundled sample, which the app never
 * writes, is listed read-only with the coded words naming its writable copy (on Settings, the Overview, Workspaces,
 * where its tasks are still read, and Reflect, which offers no run into it), none of its libraries offered, its files as they were, the settings file still holding it until it is forgotten
 * (settings-root-rows-*.png, overview-, workspaces-, reflect-bundled-root-*.png; also into $SKILLBENCH_SHOTS_DIR when set).
 * The bundled sample here is a copy laid out like an install (SKILLBENCH_RESOURCES_DIR), never the checkout's.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, closeWorkbench, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const EXTRA_SHOTS = process.env.SKILLBENCH_SHOTS_DIR

async function snap(page: Page, name: string): Promise<void> {
  await shot(page, name)
  if (EXTRA_SHOTS) {
    fs.mkdirSync(EXTRA_SHOTS, { recursive: true })
    await page.screenshot({ path: path.join(EXTRA_SHOTS, `${name}.png`), fullPage: true })
  }
}

/** Every file and folder below `dir`: bytes and mtime. */
function snapshot(dir: string): string {
  const out: string[] = []
  for (const rel of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const st = fs.lstatSync(path.join(dir, rel))
    out.push(`${rel} ${st.mtimeMs} ${st.isFile() ? fs.readFileSync(path.join(dir, rel)).toString('base64') : 'dir'}`)
  }
  return out.join('\n')
}

describe.skipIf(!HAS_CHROMIUM)('Settings: remembered roots with a problem (Chromium)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let tmp = ''
  let sample = ''
  let moved = ''
  let skills = ''
  let before = ''

  beforeAll(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-e2e-rows-')))
    const resources = path.join(tmp, 'install', 'resources')
    fs.cpSync(path.join(PROJECT, 'resources'), resources, { recursive: true })
    sample = path.join(resources, 'sample-data')
    before = snapshot(sample)
    moved = path.join(tmp, 'moved-away')
    skills = path.join(tmp, 'downloaded-skills')
    fs.mkdirSync(path.join(skills, 'csv-tools'), { recursive: true })
    fs.writeFileSync(path.join(skills, 'csv-tools', 'SKILL.md'), '---\nname: csv-tools\ndescription: Summarise CSV files\n---\n\nRead the CSV with pandas.\n')
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'test', 'fixtures', 'e2e-root'), {
      env: { SKILLBENCH_RESOURCES_DIR: resources },
      // an earlier version's settings file: the bundled sample, a folder since moved, a skill library, as data roots
      configure: (configDir) => fs.writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify({ version: 1, settings: { dataRoots: [sample, moved, skills] } }))
    }))
  }, 240_000)

  afterAll(async () => {
    await closeWorkbench({ browser, served })
    fs.rmSync(tmp, { recursive: true, force: true })
  })

  it("each problem root's row says its problem, the bundled sample read-only with its copy; en and zh, axe-clean", async () => {
    const copy = path.join(served.configDir, 'sample-data')
    await go(page, 'settings')
    const rows = page.getByTestId('settings-root')
    await expect.poll(() => rows.count()).toBe(4)
    const rowOf = (p: string) => rows.filter({ hasText: p })
    await expect.poll(() => rowOf(moved).getByTestId('root-row-problem').textContent()).toBe('folder not found')
    expect(await rowOf(skills).getByTestId('root-row-problem').textContent()).toBe('a skill library, not a data root')
    expect(await rowOf(sample).getByTestId('root-row-problem').textContent()).toBe('bundled sample data: read-only')
    for (const p of [moved, skills, sample]) expect(await rowOf(p).textContent()).not.toMatch(/user\(s\)/)
    // the root given for this run keeps its counts
    expect(await rows.first().textContent()).toMatch(/1 user\(s\), 2 task\(s\)/)
    const notice = page.locator('[data-testid="root-problem"][data-problem="bundled-sample"]')
    expect(await notice.textContent()).toContain(`is in the sample data bundled with Skillbench, which the app never changes: open its writable copy ${copy} instead`)
    await page.getByTestId('settings-roots').scrollIntoViewIfNeeded()
    await snap(page, 'settings-root-rows-en')
    await expectAccessible(page, 'Settings, remembered problem roots (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => rowOf(moved).getByTestId('root-row-problem').textContent()).toBe('找不到文件夹')
    expect(await rowOf(sample).getByTestId('root-row-problem').textContent()).toBe('安装自带的示例数据：只读')
    expect(await notice.textContent()).toContain('位于安装自带的示例数据中，应用从不修改它')
    await snap(page, 'settings-root-rows-zh')
    await expectAccessible(page, 'Settings, remembered problem roots (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('Workspaces lists the bundled root\'s tasks under its notice; Reflect offers no run into it; en and zh, axe-clean', async () => {
    await go(page, 'workspaces')
    await page.getByTestId('root-picker').selectOption(sample)
    const notice = page.locator('[data-testid="root-problem"][data-problem="bundled-sample"]')
    await notice.waitFor()
    await expect.poll(() => page.getByTestId('screen-workspaces').textContent(), { timeout: 30_000 }).toContain('output_20261101_093000')
    expect(await page.getByTestId('task-reflect').isDisabled()).toBe(true)
    await snap(page, 'workspaces-bundled-root-en')
    await expectAccessible(page, 'Workspaces, a bundled root (en)')
    await go(page, 'reflect')
    await page.getByTestId('reflect-root').selectOption(sample)
    await notice.waitFor()
    await expect.poll(() => page.getByTestId('reflect-all').textContent(), { timeout: 30_000 }).not.toMatch(/\(0\)/)
    expect(await page.getByTestId('reflect-all').isDisabled()).toBe(true)
    await snap(page, 'reflect-bundled-root-en')
    await expectAccessible(page, 'Reflect, a bundled root (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => notice.textContent()).toContain('是只读的示例数据')
    await snap(page, 'reflect-bundled-root-zh')
    await expectAccessible(page, 'Reflect, a bundled root (zh)')
    await go(page, 'workspaces')
    await notice.waitFor()
    await snap(page, 'workspaces-bundled-root-zh')
    await expectAccessible(page, 'Workspaces, a bundled root (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('the Overview says the bundled root is read-only; none of its libraries is offered; its files unchanged; forgotten from Settings', async () => {
    await go(page, 'overview')
    const notice = page.locator('[data-testid="root-problem"][data-problem="bundled-sample"]')
    await notice.waitFor()
    expect(await notice.textContent()).toContain(`${sample} is read-only sample data`)
    const libs = await page.getByTestId('library-picker').locator('option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value))
    expect(libs.some((l) => l.startsWith(sample))).toBe(false)
    await snap(page, 'overview-bundled-root-en')
    await expectAccessible(page, 'Overview, a bundled root remembered (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => notice.textContent()).toContain(`${sample} 是只读的示例数据`)
    await snap(page, 'overview-bundled-root-zh')
    await expectAccessible(page, 'Overview, a bundled root remembered (zh)')
    await page.getByTestId('language-switch').selectOption('en')
    const settingsFile = path.join(served.configDir, 'settings.json')
    expect(fs.readFileSync(settingsFile, 'utf8')).toContain(sample)
    await go(page, 'settings')
    await page.getByTestId('settings-root').filter({ hasText: sample }).getByTestId('root-forget').click()
    await expect.poll(() => page.getByTestId('settings-root').count()).toBe(3)
    expect(fs.readFileSync(settingsFile, 'utf8')).not.toContain(sample)
    expect(snapshot(sample)).toBe(before)
  })
})
