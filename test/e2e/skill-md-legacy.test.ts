/**
 * A SKILL.md library in Chromium (issue 36 point 5): a merge retires a member to `.skillbench/legacy/`, the review's
 * moves tab and the Skills screen's legacy filter say where it went, an older version's root `legacy/` is listed and
 * restored from — in English and 简体中文, audited by axe-core (artifacts/screenshots/skillmd-legacy-*.png).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const DEPLOY = '# Deploy\n\n1. Build the image with docker compose build.\n2. Run docker compose up -d.\n3. Check the logs and the health endpoint.\n'

function skillFolder(dir: string, name: string, description: string, body: string): void {
  fs.mkdirSync(path.join(dir, name, 'scripts'), { recursive: true })
  fs.writeFileSync(path.join(dir, name, 'SKILL.md'), `---\nname: ${path.basename(name)}\ndescription: ${description}\n---\n\n${body}`)
  fs.writeFileSync(path.join(dir, name, 'scripts', 'run.sh'), 'docker compose up -d\n')
}

describe.skipIf(!HAS_CHROMIUM)('a SKILL.md library keeps its bookkeeping under .skillbench/ (Chromium)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let library = ''

  beforeAll(async () => {
    library = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-e2e-mdlib-')))
    skillFolder(library, 'deploy-compose', 'Deploy with docker compose, check logs and health', DEPLOY)
    skillFolder(library, 'deploy-compose-stack', 'Deploy with docker compose, check logs and health', DEPLOY)
    // what an older version left: a retired folder in a root legacy/
    skillFolder(library, 'legacy/old-notes', 'Release notes from an older version. Use when writing release notes.', '# Notes\n\nWrite them.\n')
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'test', 'fixtures', 'e2e-root')))
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    if (library) fs.rmSync(library, { recursive: true, force: true })
  })

  it('a merge retires the other folder to .skillbench/legacy/, said in the review; nothing new at the top', async () => {
    await go(page, 'settings')
    await page.getByTestId('folder-input').fill(library)
    await page.getByTestId('folder-input').press('Enter')
    await expect.poll(() => page.getByTestId('settings-libraries').textContent(), { timeout: 20_000 }).toContain(library)
    await page.getByTestId('library-picker').selectOption(library)
    await go(page, 'curate')
    await page.getByTestId('curate-start').click()
    const proposal = page.getByTestId('group-merge').getByTestId('proposal').first()
    await proposal.waitFor({ timeout: 60_000 })
    await proposal.getByTestId('proposal-review').click()
    const dialog = page.getByTestId('review-dialog')
    await dialog.getByTestId('review-moves-tab').click()
    const moves = dialog.getByTestId('review-moves')
    await moves.waitFor()
    expect(await moves.textContent()).toMatch(/\.skillbench\/legacy\/deploy-compose(-stack)?\/SKILL\.md/)
    await shot(page, 'skillmd-legacy-01-review-en')
    await expectAccessible(page, 'Review moves in a SKILL.md library (en)')
    await dialog.getByTestId('review-accept').click()
    await dialog.waitFor({ state: 'detached' })
    await expect.poll(() => fs.readdirSync(path.join(library, '.skillbench', 'legacy')).filter((n) => n.startsWith('deploy-compose'))).toHaveLength(1)
    expect(fs.readdirSync(library).sort()).toEqual(['.skillbench', expect.stringMatching(/^deploy-compose(-stack)?$/), 'legacy'])
    expect(fs.readdirSync(path.join(library, 'legacy'))).toEqual(['old-notes'])
  })

  it('Skills → legacy lists both places; the old one is restored from the root legacy/', async () => {
    await go(page, 'skills')
    await page.getByTestId('skill-legacy-filter').selectOption('legacy')
    await expect.poll(() => page.getByTestId('skill-row').count(), { timeout: 20_000 }).toBe(2)
    await shot(page, 'skillmd-legacy-02-skills-legacy-en')
    await expectAccessible(page, 'Skills, legacy filter, SKILL.md library (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => page.getByTestId('screen-skills').textContent()).toContain('技能')
    await shot(page, 'skillmd-legacy-02-skills-legacy-zh')
    await expectAccessible(page, 'Skills, legacy filter, SKILL.md library (zh)')
    await page.getByTestId('skill-row').filter({ hasText: 'old-notes' }).click()
    await page.getByTestId('skill-restore').click()
    await expect.poll(() => fs.existsSync(path.join(library, 'old-notes', 'scripts', 'run.sh')), { timeout: 20_000 }).toBe(true)
    expect(fs.readdirSync(path.join(library, 'legacy'))).toEqual([])
    await shot(page, 'skillmd-legacy-03-restored-zh')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('no console errors', () => {
    expect(browser.consoleErrors).toEqual([])
  })
})
