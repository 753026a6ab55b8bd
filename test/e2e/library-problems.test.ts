/**
 * A library's own problems in Chromium: a change a crash interrupted, reported by the listing (which changes no
 * file) and finished by the next write (a retire) — recovery could not roll it back — and index.json that the retire
 * could not update, shown above the Skills list by code — in English and 简体中文, audited by axe-core
 * (artifacts/screenshots/library-problems-*.png); what recovery did is dismissed, index.json's problem stays.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const TX = '20261203T091500Z-apply-crashed'

describe.skipIf(!HAS_CHROMIUM)("a library's own problems on the Skills screen (Chromium)", () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let library = ''
  let outside = ''

  beforeAll(async () => {
    library = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-e2e-problems-')))
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-e2e-outside-'))
    for (const name of ['csv-report', 'pdf-split']) {
      fs.mkdirSync(path.join(library, name))
      fs.writeFileSync(path.join(library, name, 'SKILL.md'), `---\nname: ${name}\ndescription: Work with ${name} files step by step.\n---\n\n# ${name}\n\nStep one.\n`)
    }
    // index.json is a link (never written through), and a transaction killed mid-way left its intent, the file it
    // wrote edited by hand since (neither its old nor its new text: recovery cannot roll it back)
    fs.writeFileSync(path.join(outside, 'index.json'), '{"skills": []}\n')
    fs.symlinkSync(path.join(outside, 'index.json'), path.join(library, 'index.json'))
    fs.mkdirSync(path.join(library, '.skillbench', 'tx'), { recursive: true })
    const ops = [{ op: 'write', path: 'csv-report/SKILL.md', before: 'the text before\n', after: 'the text the change wrote\n' }]
    fs.writeFileSync(path.join(library, '.skillbench', 'tx', `${TX}.json`), JSON.stringify({ id: TX, record: { id: TX, action: 'apply', proposal_id: 'p-1', kind: 'merge', by: 'u', at: '2026-12-03T09:15:00Z', changes: [], ops } }))
    ;({ served, browser, page } = await openWorkbench(path.join(PROJECT, 'test', 'fixtures', 'e2e-root')))
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    for (const d of [library, outside]) if (d) fs.rmSync(d, { recursive: true, force: true })
  })

  it('shows the interrupted change, then what recovery could not do and index.json not updated after a retire, in English then Chinese; dismiss', async () => {
    await go(page, 'settings')
    await page.getByTestId('folder-input').fill(library)
    await page.getByTestId('folder-input').press('Enter')
    await expect.poll(() => page.getByTestId('settings-libraries').textContent(), { timeout: 20_000 }).toContain(library)
    await page.getByTestId('library-picker').selectOption(library)
    await go(page, 'skills')
    const notice = page.getByTestId('library-problems')
    await notice.waitFor({ timeout: 20_000 })
    // listing only reads: the change is reported, still there for the next write to finish
    expect(await notice.getByTestId('library-problem').allTextContents()).toEqual([
      `${TX}: a change was interrupted (a crash or a kill); the next change to this library (from the app, the CLI or an agent) finishes it`
    ])
    expect(fs.readdirSync(path.join(library, '.skillbench', 'tx'))).toEqual([`${TX}.json`])
    expect(await notice.getByTestId('library-problems-dismiss').count()).toBe(0)

    // a retire through the editor finishes it first (set aside: it cannot be rolled back); the store cannot write
    // index.json through its link, and says so
    await page.getByTestId('skill-row').filter({ hasText: 'pdf-split' }).getByTestId('skill-open').click()
    await page.getByRole('button', { name: 'Move to legacy' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Move to legacy' }).click()
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    await go(page, 'skills')
    await expect.poll(() => notice.getByTestId('library-problem').count(), { timeout: 20_000 }).toBe(2)
    const [recovery, index] = await notice.getByTestId('library-problem').allTextContents()
    expect(fs.readdirSync(path.join(library, '.skillbench', 'tx'))).toEqual([`${TX}.json.conflict`])
    expect(recovery).toBe(`${TX}: csv-report/SKILL.md matches neither its old nor its new text`)
    expect(index).toMatch(/^index\.json could not be updated: .*symbolic link/)
    await shot(page, 'library-problems-01-skills-en')
    await expectAccessible(page, 'Skills with library problems (en)')

    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => notice.textContent()).toContain('此技能库有需要留意的情况')
    const zh = await notice.getByTestId('library-problem').allTextContents()
    expect(zh[0]).toBe(`${TX}：csv-report/SKILL.md 既不是修改前的内容，也不是修改后的内容`)
    expect(zh[1]).toMatch(/^无法更新 index\.json：.*符号链接/)
    await shot(page, 'library-problems-02-skills-zh')
    await expectAccessible(page, 'Skills with library problems (zh)')

    // dismissed (kept in the library: the log stays, the seen offset moves); index.json's problem is this process's
    await notice.getByRole('button', { name: '不再显示恢复记录' }).click()
    await expect.poll(() => notice.getByTestId('library-problem').count()).toBe(1)
    expect((await notice.getByTestId('library-problem').allTextContents())[0]).toMatch(/^无法更新 index\.json/)
    expect(JSON.parse(fs.readFileSync(path.join(library, '.skillbench', 'recovery-seen.json'), 'utf8')).offset).toBe(fs.statSync(path.join(library, '.skillbench', 'recovery-log')).size)
    await expectAccessible(page, 'Skills with index.json problem only (zh)')
    expect(browser.consoleErrors).toEqual([])
  }, 120_000)
})
