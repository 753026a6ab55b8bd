/**
 * Team sync in Chromium: the library of the e2e root shares with a bare repository; Alice (another clone) and the
 * person here both change one skill; the Curate screen shows where the library stands, the Sync button runs with
 * progress, and the change both made comes back as a proposal saying whose change it is. English and 简体中文,
 * audited by axe. Screenshots: artifacts/screenshots/7N-sync-*.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { initSync } from '../../src/main/sync/init'
import { syncLibrary } from '../../src/main/sync/sync'
import { createSkillTools } from '../../src/main/tools/skill-tools'
import { openLibrary } from '../../src/main/store/library'
import { buildRenderer, CHROMIUM, expectAccessible, go, HAS_CHROMIUM, openBrowser, PROJECT, serve, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const FIXTURE = path.join(PROJECT, 'test', 'fixtures', 'e2e-root')
const SKILL = '1772000002'

function gitEnv(home: string, name: string): NodeJS.ProcessEnv {
  return {
    HOME: home,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: path.join(home, '.gitconfig'),
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: `${name.toLowerCase()}@example.org`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: `${name.toLowerCase()}@example.org`
  }
}

describe.skipIf(!HAS_CHROMIUM)('team sync (web mode)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let tmp: string

  beforeAll(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sb-e2e-sync-')))
    const devEnv = { ...process.env, ...gitEnv(path.join(tmp, 'dev-home'), 'Dev') }
    fs.mkdirSync(path.join(tmp, 'dev-home'))
    const rendererDir = await buildRenderer()
    served = await serve(FIXTURE, rendererDir, { env: gitEnv(path.join(tmp, 'dev-home'), 'Dev') })
    const lib = path.join(served.root, 'dev', 'general', 'experience')
    const bare = path.join(tmp, 'team.git')
    spawnSync('git', ['init', '-q', '--bare', '-b', 'main', bare], { env: devEnv })
    await initSync({ library: lib, url: `file://${bare}`, env: devEnv })
    await syncLibrary({ library: lib, env: devEnv })
    // Alice clones the team library, changes the calculator skill and syncs.
    const aliceEnv = { ...process.env, ...gitEnv(path.join(tmp, 'alice-home'), 'Alice') }
    fs.mkdirSync(path.join(tmp, 'alice-home'))
    const alice = path.join(tmp, 'alice')
    spawnSync('git', ['clone', '-q', `file://${bare}`, alice], { env: aliceEnv })
    await createSkillTools(await openLibrary(alice)).edit_skill(SKILL, 'append', '\n- Alice: keep the tests next to the module.\n')
    await syncLibrary({ library: alice, env: aliceEnv })
    // Here, the same skill is changed too.
    await createSkillTools(await openLibrary(lib)).edit_skill(SKILL, 'append', '\n- Dev: run the tests in CI as well.\n')
    browser = await openBrowser(served.url)
    page = browser.page
    await page.getByTestId('overview-counts').waitFor()
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true })
  })

  it('shows where the library stands and syncs with progress; the change both made waits for review, naming whose it is', async () => {
    await go(page, 'curate')
    await page.getByTestId('sync-panel').waitFor()
    expect(await page.getByTestId('sync-remote').textContent()).toContain('origin/main')
    expect(await page.getByTestId('sync-state').textContent()).toContain('1 local change(s)')
    await shot(page, '70-sync-panel-en')
    await expectAccessible(page, 'Sync panel (en)')
    await page.getByTestId('sync-start').click()
    await page.getByTestId('sync-result').waitFor()
    expect(await page.getByTestId('sync-result').textContent()).toMatch(/Synced: 1 commit\(s\) made, 1 received, 2 sent\. 1 skill\(s\) were changed on both sides/)
    await page.getByTestId('sync-conflicts').waitFor()
    const card = page.getByTestId('proposal').filter({ hasText: 'Alice' })
    await card.waitFor()
    // The card words the reason by its code (sync.reason_edited_conflicts): the same English sentence as the CLI's.
    expect(await card.textContent()).toMatch(/Alice's version \(origin\/main\) is live now; this proposal brings Dev's change back on top of it: 1 place\(s\) changed on both sides/)
    await shot(page, '71-sync-done-en')
    await expectAccessible(page, 'Sync done (en)')
    await card.getByTestId('proposal-review').click()
    await page.getByTestId('review-dialog').waitFor()
    await page.getByTestId('diff-view').waitFor()
    await shot(page, '72-sync-review-en')
    await page.keyboard.press('Escape')
  })

  it('in 简体中文', async () => {
    await page.getByTestId('language-switch').selectOption('zh')
    await go(page, 'curate')
    await page.getByTestId('sync-panel').waitFor()
    expect(await page.getByTestId('sync-panel').textContent()).toContain('团队同步')
    const card = page.getByTestId('proposal').filter({ hasText: 'Alice' })
    expect(await card.textContent()).toContain('被双方同时修改。Alice 的版本（origin/main）现已生效')
    await shot(page, '73-sync-zh')
    await expectAccessible(page, 'Sync (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('no console errors', () => {
    expect(browser.consoleErrors).toEqual([])
  })
})
