/**
 * End to end in a real browser: Debian's Chromium (playwright-core) against `skillbench serve` on a
 * temporary copy of test/fixtures/e2e-root. One page walks the whole product: browse a task, reflect
 * it, edit + save + rate the new skill in Monaco, curate, accept a merge in the diff view, undo it.
 * Screenshots of every screen (English, and Chinese) go to artifacts/screenshots/.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { buildRenderer, CHROMIUM, HAS_CHROMIUM, launch, PROJECT, serve, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const FIXTURE = path.join(PROJECT, 'test', 'fixtures', 'e2e-root')
const TASK = 'output_20260301_101500'

describe.skipIf(!HAS_CHROMIUM)('workbench in Chromium (web mode)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let library = ''
  let createdFile = ''

  beforeAll(async () => {
    const rendererDir = await buildRenderer()
    served = await serve(FIXTURE, rendererDir)
    library = path.join(served.root, 'dev', 'general', 'experience')
    browser = await launch()
    page = browser.page
    page.setDefaultTimeout(20_000)
    await page.goto(served.url)
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
  })

  const go = async (screen: string): Promise<void> => {
    await page.getByTestId(`nav-${screen}`).click()
    await page.getByTestId(`screen-${screen}`).waitFor()
  }

  it('opens on the Overview with the library counted and the token gone from the address bar', async () => {
    await page.getByTestId('overview-counts').waitFor()
    expect(await page.getByTestId('overview-counts').textContent()).toContain('2Skills')
    expect(page.url()).not.toContain('token=')
    await page.getByTestId('map-node').first().waitFor()
    await shot(page, '01-overview-en')
  })

  it('browses a task: parsed trace beside the raw log', async () => {
    await go('workspaces')
    await page.getByTestId('task-row').filter({ hasText: TASK }).click()
    const trace = page.getByTestId('task-trace')
    await expect.poll(() => trace.textContent()).toContain('Parse a CSV export of orders')
    expect(await trace.textContent()).toContain('UnicodeDecodeError')
    await page.getByTestId('log-view').getByText('Received user requirement', { exact: false }).first().waitFor()
    await shot(page, '02-workspaces-en')
  })

  it('reflects the task and watches progress reach 100 %', async () => {
    await page.getByTestId('task-reflect').click()
    await page.getByTestId('screen-reflect').waitFor()
    await expect.poll(() => page.getByTestId('reflect-state').textContent(), { timeout: 60_000 }).toBe('Done')
    expect(await page.getByTestId('reflect-progress').getAttribute('aria-valuenow')).toBe('100')
    const link = page.getByTestId('reflect-created-link')
    await link.waitFor()
    createdFile = ((await link.textContent()) ?? '').trim()
    expect(fs.existsSync(path.join(library, createdFile))).toBe(true)
    await shot(page, '03-reflect-en')
  }, 120_000)

  it('opens the new skill in Monaco, edits it and saves with Ctrl+S', async () => {
    await page.getByTestId('reflect-created-link').click()
    await page.getByTestId('screen-editor').waitFor()
    const editor = page.locator('.monaco-editor').first()
    await editor.waitFor()
    await editor.locator('.view-lines').click()
    await page.keyboard.press('Control+End')
    await page.keyboard.type('\nEdited in the browser test 浏览器测试.')
    await page.getByTestId('dirty-badge').waitFor()
    await page.keyboard.press('Control+S')
    await page.getByTestId('saved-badge').waitFor()
    await shot(page, '04-editor-en')
    expect(fs.readFileSync(path.join(library, createdFile), 'utf8')).toContain('Edited in the browser test 浏览器测试.')
  })

  it('rates the skill with the keyboard and shows quality before → after', async () => {
    const slider = page.getByTestId('rating-slider')
    await slider.focus()
    await page.keyboard.press('End')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.getByTestId('rating-result').textContent()).toMatch(/Quality 0\.500 → 0\.650/)
    await expect.poll(() => fs.readFileSync(path.join(library, createdFile), 'utf8')).toMatch(/quality_index: 0\.65\b/)
  })

  it('lists the skills (3 active) on the Skills screen', async () => {
    await go('skills')
    await expect.poll(() => page.getByTestId('skill-row').count()).toBe(3)
    await shot(page, '05-skills-en')
  })

  it('computes the curation plan, accepts the merge in the diff view and undoes it', async (ctx) => {
    await go('curate')
    await page.getByTestId('curate-start').click()
    const merge = page.getByTestId('group-merge')
    const unavailable = page.getByText('not available in this build')
    await Promise.race([merge.waitFor({ timeout: 60_000 }), unavailable.first().waitFor({ timeout: 60_000 })])
    if (await unavailable.count()) {
      console.warn('[e2e] curation is not available in this build yet: merge/undo steps skipped')
      ctx.skip()
    }
    const proposal = merge.getByTestId('proposal').filter({ hasText: 'alculator' }).first()
    expect(await proposal.textContent()).toMatch(/Calculator in Python.*\+.*Python calculator|Python calculator.*\+.*Calculator in Python/)
    await shot(page, '06-curate-en')
    await proposal.getByTestId('proposal-review').click()
    const dialog = page.getByTestId('review-dialog')
    await dialog.locator('.monaco-diff-editor').waitFor()
    await page.waitForTimeout(300) // let the diff decorations paint for the screenshot
    await shot(page, '07-merge-diff-en')
    const before = fs.readdirSync(library).filter((f) => f.endsWith('.md')).sort()
    await dialog.getByTestId('review-accept').click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => fs.readdirSync(library).filter((f) => f.endsWith('.md')).sort()).not.toEqual(before)
    expect(fs.existsSync(path.join(library, 'legacy'))).toBe(true)
    await page.getByTestId('curate-tab-history').click()
    const entry = page.getByTestId('journal-entry').first()
    await entry.waitFor()
    await shot(page, '08-history-en')
    await entry.getByTestId('journal-undo').click()
    await entry.getByTestId('journal-undone').waitFor()
    await expect.poll(() => fs.readdirSync(library).filter((f) => f.endsWith('.md')).sort()).toEqual(before)
  }, 120_000)

  it('shows the settings with the key storage explained', async () => {
    await go('settings')
    expect(await page.getByTestId('key-storage').textContent()).toContain('0600')
    await shot(page, '09-settings-en')
  })

  it('shows a Codex session folder beside the data root, with the same trace and raw-log view', async () => {
    await go('workspaces')
    const picker = page.getByTestId('source-picker')
    await expect.poll(async () => (await picker.locator('option').allTextContents()).join('|')).toContain('Codex CLI')
    const value = await picker.locator('option').nth(1).getAttribute('value')
    await picker.selectOption(value!)
    await page.getByTestId('task-row').first().click()
    await expect.poll(() => page.getByTestId('task-trace').textContent()).toContain('nightly rsync backups')
    await page.getByTestId('log-view').getByText('session_meta', { exact: false }).first().waitFor()
    await shot(page, '22-workspaces-sessions-en')
    await picker.selectOption('')
  })

  it('edits the agent\'s memory in Monaco and shows the system-prompt sections', async () => {
    await go('memory')
    const memoryDir = path.join(served.root, 'dev', 'memory')
    expect(await page.getByTestId('memory-dir').textContent()).toBe(memoryDir)
    const editor = page.getByTestId('memory-editor').locator('.monaco-editor')
    await editor.waitFor()
    await editor.locator('.view-lines').click()
    await page.keyboard.type('- Only use the registered tools. 只使用已注册的工具。')
    await page.getByTestId('memory-dirty').waitFor()
    await page.keyboard.press('Control+S')
    await page.getByTestId('memory-saved').waitFor()
    expect(fs.readFileSync(path.join(memoryDir, 'lessons.md'), 'utf8')).toContain('- Only use the registered tools. 只使用已注册的工具。')
    await expect.poll(() => page.getByTestId('memory-prompt').textContent()).toContain('## 行为约束 / Lessons')
    await page.getByTestId('memory-consolidate').click()
    await page.getByTestId('memory-consolidate-result').waitFor()
    await shot(page, '20-memory-en')
    await page.getByTestId('memory-prompt').scrollIntoViewIfNeeded()
    await shot(page, '20-memory-prompt-en')
  })

  it('switches to 简体中文 and every screen follows', async () => {
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => page.getByTestId('nav-skills').textContent()).toContain('技能')
    const screens = ['overview', 'workspaces', 'skills', 'reflect', 'curate', 'settings']
    for (const [i, name] of screens.entries()) {
      await go(name)
      await page.waitForTimeout(250)
      await shot(page, `${String(10 + i)}-${name}-zh`)
    }
    expect(await page.getByTestId('screen-settings').textContent()).toContain('设置')
    await go('memory')
    await page.getByTestId('memory-prompt').waitFor()
    expect(await page.getByTestId('screen-memory').textContent()).toContain('系统提示词片段')
    await page.waitForTimeout(250)
    await shot(page, '21-memory-zh')
    await page.getByTestId('memory-prompt').scrollIntoViewIfNeeded()
    await shot(page, '21-memory-prompt-zh')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('follows the system dark theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' })
    await go('skills')
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(background).toBe('rgb(21, 24, 30)')
    await shot(page, '16-skills-dark')
    await page.getByTestId('skill-row').first().dblclick()
    await page.locator('.monaco-editor').first().waitFor()
    await page.waitForTimeout(300)
    await shot(page, '17-editor-dark')
    await page.emulateMedia({ colorScheme: 'light' })
  })

  it('logged no errors in the page', () => {
    // HTTP error answers the UI handled (and showed) are logged by Chromium too; those are not page errors.
    const errors = browser.consoleErrors.filter((e) => !/favicon|Failed to load resource: the server responded with a status of/.test(e))
    expect(errors).toEqual([])
  })
})
