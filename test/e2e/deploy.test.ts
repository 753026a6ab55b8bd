/**
 * Skills in and out, end to end in Chromium: install from a local git repository (file://) with the Skills
 * screen's "Install from git", see its provenance in the editor, preview and run a deploy into the (temporary)
 * Claude Code folder, change the deployed copy as an agent would and see it drifted and offered back, undo, all in
 * English and 简体中文, audited by axe. Screenshots: artifacts/screenshots/6N-*.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { buildRenderer, CHROMIUM, expectAccessible, go, HAS_CHROMIUM, launch, PROJECT, serve, shot } from './harness'
import type { Browser, Served } from './harness'
import { makeRepo, skillMd, type TestRepo } from '../sources/git-repo'

/** Deploy, through its confirmation (an ordinary library: no sample warning), confirmed. */
async function deployConfirmed(p: Page): Promise<string> {
  await p.getByTestId('deploy-run').click()
  const dialog = p.getByTestId('deploy-confirm')
  await dialog.waitFor()
  // a dry run older than a few seconds is read again first: the counts are those of the write
  await expect.poll(() => dialog.getByTestId('deploy-confirm-run').isEnabled()).toBe(true)
  expect(await dialog.getByTestId('deploy-confirm-sample').count()).toBe(0)
  const counts = (await dialog.getByTestId('deploy-confirm-counts').textContent()) ?? ''
  await dialog.getByTestId('deploy-confirm-run').click()
  await dialog.waitFor({ state: 'detached' })
  return counts
}

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const FIXTURE = path.join(PROJECT, 'test', 'fixtures', 'e2e-root')

describe.skipIf(!HAS_CHROMIUM)('skills in and out (web mode)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let repo: TestRepo
  let cache: string
  let claudeSkills = ''

  beforeAll(async () => {
    repo = makeRepo('sb-e2e-repo-')
    repo.commit({
      'skills/pdf-tables/SKILL.md': skillMd('pdf-tables', 'Extract tables from PDF files. Use when a PDF holds tables to turn into CSV.', '# PDF tables\n\nUse pdfplumber; check the page count first.\n', 'license: MIT\n'),
      'skills/pdf-tables/scripts/extract.py': { text: 'print("tables")\n', mode: 0o755 },
      'skills/bad/SKILL.md': skillMd('Bad Name', 'An invalid name.', 'x\n')
    })
    cache = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-cache-'))
    const rendererDir = await buildRenderer()
    served = await serve(FIXTURE, rendererDir, { env: { SKILLBENCH_CACHE_DIR: cache, GIT_CONFIG_NOSYSTEM: '1' } })
    claudeSkills = path.join(path.dirname(served.root), 'home', '.claude', 'skills')
    browser = await launch()
    page = browser.page
    page.setDefaultTimeout(20_000)
    await page.goto(served.url)
    await page.getByTestId('overview-counts').waitFor()
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    repo?.cleanup()
    fs.rmSync(cache, { recursive: true, force: true })
  })

  it('installs from git: what was installed, what was not and why', async () => {
    await go(page, 'skills')
    await page.getByTestId('install-open').click()
    await page.getByTestId('install-dialog').waitFor()
    await shot(page, '60-install-dialog-en')
    await expectAccessible(page, 'Install dialog (en)')
    await page.getByTestId('install-source').fill(repo.url)
    await page.getByTestId('install-run').click()
    await page.getByTestId('install-result').waitFor()
    expect(await page.getByTestId('install-installed').textContent()).toContain('pdf-tables')
    expect(await page.getByTestId('install-skipped').textContent()).toContain('fails validation')
    await shot(page, '61-install-result-en')
    await expectAccessible(page, 'Install result (en)')
    await page.keyboard.press('Escape')
    await page.getByTestId('skill-row').filter({ hasText: 'pdf-tables' }).waitFor()
  })

  it('shows where the installed skill came from in the editor', async () => {
    await page.getByTestId('skill-row').filter({ hasText: 'pdf-tables' }).dblclick()
    const panel = page.getByTestId('provenance')
    await panel.waitFor()
    expect(await page.getByTestId('provenance-repo').textContent()).toBe(repo.url)
    await page.getByTestId('provenance-check').click()
    expect(await page.getByTestId('provenance-result').textContent()).toContain('Up to date with its source.')
    await page.locator('.monaco-editor').first().waitFor()
    await shot(page, '62-editor-provenance-en')
    await expectAccessible(page, 'Editor with provenance (en)')
  })

  it('previews a deploy into Claude Code, deploys, undoes, and sees a copy changed there offered back', async () => {
    await go(page, 'deploy')
    await page.getByTestId('deploy-table').waitFor()
    const actions = await page.getByTestId('deploy-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')))
    expect(actions).toEqual(['create', 'create', 'create'])
    // a long name is cut after a whole word with '…'; the tooltip holds all of it (issue 37)
    const cut = await page.locator('[data-testid="deploy-row"] [data-full-name]').evaluateAll((els) => els.map((e) => [e.getAttribute('title'), e.querySelector('[aria-hidden]')?.textContent]))
    expect(cut.length).toBeGreaterThan(0)
    for (const [full, shown] of cut) expect(full!.startsWith(shown!.slice(0, -1)) && shown!.endsWith('-…')).toBe(true)
    await shot(page, '63-deploy-preview-en')
    await expectAccessible(page, 'Deploy preview (en)')
    expect(await deployConfirmed(page)).toBe('3 written new · 0 updated · 0 left alone')
    await page.getByTestId('deploy-done').waitFor()
    expect(fs.existsSync(path.join(claudeSkills, 'pdf-tables', 'SKILL.md'))).toBe(true)
    await expect.poll(() => page.getByTestId('deploy-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')))).toEqual(['unchanged', 'unchanged', 'unchanged'])
    await shot(page, '64-deploy-done-en')
    await page.getByTestId('deploy-undo').click()
    await expect.poll(() => page.getByTestId('deploy-done').textContent()).toContain('Undone')
    expect(fs.existsSync(path.join(claudeSkills, 'pdf-tables'))).toBe(false)
    await page.getByTestId('deploy-preview').click()
    await expect.poll(() => page.getByTestId('deploy-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-action')))).toEqual(['create', 'create', 'create'])
    await deployConfirmed(page)
    await expect.poll(() => page.getByTestId('deploy-done').textContent()).toContain('Deployed')
    // an agent improves its copy
    const copy = path.join(claudeSkills, 'pdf-tables', 'SKILL.md')
    fs.writeFileSync(copy, fs.readFileSync(copy, 'utf8').replace('check the page count first.', 'check the page count first; skip scanned pages.'))
    await page.getByTestId('deploy-preview').click()
    await page.getByTestId('deploy-offered').waitFor()
    expect(await page.locator('[data-testid="deploy-row"][data-action="drifted"]').count()).toBe(1)
    await shot(page, '65-deploy-drifted-en')
    await expectAccessible(page, 'Deploy with a drifted copy (en)')
    // undo now would overwrite the agent's change: refused, and said where it happened
    await page.getByTestId('deploy-undo').click()
    await expect.poll(() => page.getByTestId('error-notice').textContent()).toContain('was changed there since')
    // the next deploy leaves the copy in place and offers its change back for review
    await deployConfirmed(page)
    await expect.poll(() => page.getByTestId('deploy-done').textContent()).toContain('offered back to the library')
    expect(fs.readFileSync(copy, 'utf8')).toContain('skip scanned pages')
  })

  it('the same screens in 简体中文 pass the audit', async () => {
    await page.getByTestId('language-switch').selectOption('zh')
    await go(page, 'deploy')
    await page.getByTestId('deploy-table').waitFor()
    await expect.poll(() => page.getByTestId('screen-deploy').textContent()).toContain('部署到智能体')
    await shot(page, '66-deploy-zh')
    await expectAccessible(page, 'Deploy (zh)')
    await page.setViewportSize({ width: 1024, height: 768 })
    await page.waitForTimeout(300)
    await shot(page, '66-deploy-1024-zh')
    const overflow = await page.evaluate(() => [...document.querySelectorAll('.badge, .panel, .btn, .deploy-table')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => e.className))
    expect(overflow).toEqual([])
    await page.setViewportSize({ width: 1360, height: 860 })
    await go(page, 'skills')
    await page.getByTestId('install-open').click()
    await page.getByTestId('install-dialog').waitFor()
    expect(await page.getByTestId('install-dialog').textContent()).toContain('从 git 安装技能')
    await shot(page, '67-install-dialog-zh')
    await expectAccessible(page, 'Install dialog (zh)')
    await page.keyboard.press('Escape')
    await page.getByTestId('skill-row').filter({ hasText: 'pdf-tables' }).dblclick()
    await page.getByTestId('provenance').waitFor()
    await page.locator('.monaco-editor').first().waitFor()
    expect(await page.getByTestId('provenance').textContent()).toContain('安装来源')
    await shot(page, '68-editor-provenance-zh')
    await expectAccessible(page, 'Editor with provenance (zh)')
    await go(page, 'curate')
    await page.getByTestId('group-learned').waitFor()
    await shot(page, '69-curate-learned-zh')
    await expectAccessible(page, 'Curate with a learned proposal (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('logged no errors in the page', () => {
    const errors = browser.consoleErrors.filter((e) => !/favicon|Failed to load resource: the server responded with a status of/.test(e))
    expect(errors).toEqual([])
  })
})
