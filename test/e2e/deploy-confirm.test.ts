/**
 * Deploy asks before it writes, end to end in Chromium: the bundled sample library (the copy `npm start` makes in
 * the settings folder) and an ordinary library, deployed into a temporary Claude Code folder. The confirmation says
 * per folder what is written new, updated and left alone, where, and where Undo lives; it warns that the sample's
 * skills are demo data, and only for the sample; Esc and Cancel write nothing (the folder on disk unchanged); it is
 * used by keyboard only (focus in, Tab kept inside, back to Deploy); the result says where Undo lives and opens
 * Curate › History, whose Undo takes the deploy back. English and 简体中文, audited by axe. Screenshots:
 * artifacts/screenshots/deploy-confirm-*.png (and DEPLOY_CONFIRM_SHOTS=<dir>, a copy there).
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const SAMPLE = path.join(PROJECT, 'resources', 'sample-data')
const OTHER = path.join(PROJECT, 'test', 'fixtures', 'e2e-root')

/** Every file under a folder with its bytes ('absent' when there is no folder): what "unchanged on disk" compares. */
function snapshot(dir: string): string {
  if (!fs.existsSync(dir)) return 'absent'
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).sort()
  return files.map((f) => (fs.statSync(path.join(dir, f)).isDirectory() ? `${f}/` : `${f}:${fs.readFileSync(path.join(dir, f)).toString('base64')}`)).join('\n')
}

const focused = (p: Page): Promise<string | null> => p.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)

async function picture(page: Page, name: string): Promise<void> {
  await shot(page, name)
  const extra = process.env.DEPLOY_CONFIRM_SHOTS
  if (extra) {
    fs.mkdirSync(extra, { recursive: true })
    fs.copyFileSync(path.join(PROJECT, 'artifacts', 'screenshots', `${name}.png`), path.join(extra, `${name}.png`))
  }
}

describe.skipIf(!HAS_CHROMIUM)('Deploy asks before it writes (web mode)', () => {
  let served: Served & { remembered?: string }
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let claudeSkills = ''
  let sampleLib = ''
  let otherLib = ''

  beforeAll(async () => {
    ;({ served, browser, page } = await openWorkbench(SAMPLE, { asSampleCopy: true, rememberedRoot: OTHER, timeoutMs: 20_000 }))
    // the server's home folder is a temp folder beside the copies (serve.ts): never the real home
    claudeSkills = path.join(path.dirname(served.configDir), 'home', '.claude', 'skills')
    expect(claudeSkills.startsWith(path.dirname(served.configDir))).toBe(true)
    sampleLib = path.join(fs.realpathSync(served.root), 'alice', 'general', 'experience')
    otherLib = path.join(fs.realpathSync(served.remembered!), 'dev', 'general', 'experience')
    await page.getByTestId('overview-counts').waitFor()
    await page.getByTestId('library-picker').selectOption(sampleLib)
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
  })

  it('the sample library: the confirmation warns, says per folder what happens and where; Esc writes nothing; by keyboard', async () => {
    await go(page, 'deploy')
    await page.getByTestId('deploy-table').waitFor()
    const before = snapshot(claudeSkills)
    const skills = await page.getByTestId('deploy-row').count()
    expect(skills).toBe(4)
    await page.getByTestId('deploy-run').focus()
    await page.keyboard.press('Enter')
    const dialog = page.getByRole('dialog', { name: 'Deploy into Claude Code (personal)?' })
    await dialog.waitFor()
    expect(await focused(page)).toBe('deploy-confirm-cancel')
    await expect.poll(() => dialog.getByTestId('deploy-confirm-run').isEnabled()).toBe(true)
    expect(await dialog.getByTestId('deploy-confirm-sample').textContent()).toContain('This is the bundled sample library.')
    const folder = dialog.getByTestId('deploy-confirm-folder')
    expect(await folder.count()).toBe(1)
    expect(await folder.getByTestId('deploy-confirm-dir').textContent()).toBe(claudeSkills)
    expect(await folder.getAttribute('data-written')).toBe(String(skills))
    expect(await folder.getByTestId('deploy-confirm-counts').textContent()).toBe(`${skills} written new · 0 updated · 0 left alone`)
    expect(await dialog.getByTestId('deploy-confirm-undo').textContent()).toContain('Curate › History')
    expect(await dialog.getByTestId('deploy-confirm-run').textContent()).toBe('Deploy the sample skills')
    // what a screen reader reads on entering: the dialog's name, then its description (the warning and the counts)
    const described = await dialog.evaluate((d) => document.getElementById(d.getAttribute('aria-describedby') ?? '')?.textContent ?? '')
    expect(described).toContain('bundled sample library')
    expect(described).toContain(claudeSkills)
    await picture(page, 'deploy-confirm-sample-en')
    await expectAccessible(page, 'Deploy confirmation, sample library (en)')
    // Tab stays inside: Cancel → Deploy → Cancel
    await page.keyboard.press('Tab')
    expect(await focused(page)).toBe('deploy-confirm-run')
    await page.keyboard.press('Tab')
    expect(await focused(page)).toBe('deploy-confirm-cancel')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(await focused(page)).toBe('deploy-run')
    await page.waitForTimeout(500)
    expect(snapshot(claudeSkills)).toBe(before)
    expect(await page.getByTestId('deploy-done').count()).toBe(0)
    // Cancel, the same
    await page.keyboard.press('Enter')
    await dialog.waitFor()
    await page.keyboard.press('Enter') // on Cancel
    await dialog.waitFor({ state: 'detached' })
    await page.waitForTimeout(500)
    expect(snapshot(claudeSkills)).toBe(before)
  })

  it('confirmed by keyboard: written, the result says where Undo lives, and Curate › History undoes it', async () => {
    await page.keyboard.press('Enter')
    await page.getByTestId('deploy-confirm').waitFor()
    await expect.poll(() => page.getByTestId('deploy-confirm-run').isEnabled()).toBe(true)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    const done = page.getByTestId('deploy-done')
    await done.waitFor()
    await expect.poll(() => fs.existsSync(claudeSkills) ? fs.readdirSync(claudeSkills).filter((n) => !n.startsWith('.')).length : 0).toBe(4)
    expect(await done.textContent()).toContain('Deployed: 4 written, 0 updated, 0 removed.')
    expect(await done.getByTestId('deploy-undo-where').textContent()).toBe(' To undo it: the button here, or later Curate › History.')
    await expect.poll(() => focused(page)).toBe('deploy-undo')
    await picture(page, 'deploy-confirm-result-en')
    await expectAccessible(page, 'Deploy result (en)')
    await done.getByTestId('deploy-history').click()
    await expect.poll(() => page.getByTestId('curate-tab-history').getAttribute('aria-selected')).toBe('true')
    const entry = page.getByTestId('journal-entry').first()
    await entry.waitFor()
    expect(await entry.textContent()).toContain('Deploy')
    await entry.getByTestId('journal-undo').click()
    await expect.poll(() => fs.readdirSync(claudeSkills).filter((n) => !n.startsWith('.')).length).toBe(0)
  })

  it('the same in 简体中文, audited', async () => {
    await page.getByTestId('language-switch').selectOption('zh')
    await go(page, 'deploy')
    await page.getByTestId('deploy-table').waitFor()
    await page.getByTestId('deploy-preview').click()
    await expect.poll(() => page.locator('[data-testid="deploy-row"][data-action="create"]').count()).toBe(4)
    const before = snapshot(claudeSkills)
    await page.getByTestId('deploy-run').click()
    const dialog = page.getByTestId('deploy-confirm')
    await dialog.waitFor()
    // a dry run older than a few seconds is read again before the write can be confirmed
    await expect.poll(() => dialog.getByTestId('deploy-confirm-run').isEnabled()).toBe(true)
    expect(await dialog.getAttribute('aria-label')).toBe('部署到 Claude Code（个人）？')
    expect(await dialog.getByTestId('deploy-confirm-sample').textContent()).toContain('这是自带的示例技能库。')
    expect(await dialog.getByTestId('deploy-confirm-counts').textContent()).toBe('新写入 4 个 · 更新 0 个 · 保持不动 0 个')
    expect(await dialog.getByTestId('deploy-confirm-undo').textContent()).toContain('整理 › 历史')
    await picture(page, 'deploy-confirm-sample-zh')
    await expectAccessible(page, 'Deploy confirmation, sample library (zh)')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    expect(snapshot(claudeSkills)).toBe(before)
    await page.getByTestId('deploy-run').click()
    await dialog.getByTestId('deploy-confirm-run').click()
    const done = page.getByTestId('deploy-done')
    await done.waitFor()
    expect(await done.textContent()).toContain('“整理 › 历史”')
    await picture(page, 'deploy-confirm-result-zh')
    await expectAccessible(page, 'Deploy result (zh)')
    await done.getByTestId('deploy-undo').click()
    await expect.poll(() => fs.readdirSync(claudeSkills).filter((n) => !n.startsWith('.')).length).toBe(0)
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('another library: no sample warning; cancelling leaves the folder as it was', async () => {
    await page.getByTestId('library-picker').selectOption(otherLib)
    await go(page, 'deploy')
    await page.getByTestId('deploy-table').waitFor()
    await expect.poll(() => page.locator('[data-testid="deploy-row"][data-action="create"]').count()).toBeGreaterThan(0)
    const before = snapshot(claudeSkills)
    await page.getByTestId('deploy-run').click()
    const dialog = page.getByTestId('deploy-confirm')
    await dialog.waitFor()
    await expect.poll(() => dialog.getByTestId('deploy-confirm-run').isEnabled()).toBe(true)
    expect(await dialog.getByTestId('deploy-confirm-sample').count()).toBe(0)
    expect(await dialog.getByTestId('deploy-confirm-run').textContent()).toBe('Deploy')
    expect(await dialog.getByTestId('deploy-confirm-dir').textContent()).toBe(claudeSkills)
    await picture(page, 'deploy-confirm-other-en')
    await expectAccessible(page, 'Deploy confirmation, another library (en)')
    await dialog.getByTestId('deploy-confirm-cancel').click()
    await dialog.waitFor({ state: 'detached' })
    await page.waitForTimeout(500)
    expect(snapshot(claudeSkills)).toBe(before)
  })

  it('logged no errors in the page', () => {
    const errors = browser.consoleErrors.filter((e) => !/favicon|Failed to load resource: the server responded with a status of/.test(e))
    expect(errors).toEqual([])
  })
})
