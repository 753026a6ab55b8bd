/**
 * The Curate screen's reasons after the content judge, on real templated skills: a library of 24 real Composio
 * skills (read from ../shared/data/real, written as AGIAgent skill files into a temp data root, never into the
 * project) is curated in the browser; the card for the two Zoho Mail skills says what they share, in English and
 * in Chinese, and the services that only share the template (Gender API / Genderize, Salesforce Marketing / Service
 * Cloud) are not proposed. Screenshots: artifacts/screenshots/judge-curate-<en|zh>.png.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { skillFileText } from '../curate/fixtures'
import { HAS_REAL_DATA, realPath } from '../helpers/real-data'
import { expectAccessible, go, HAS_CHROMIUM, openWorkbench, shot } from './harness'
import type { Browser, Served } from './harness'

const SERVICES = [
  'zoho-mail', 'zoho_mail', 'gender-api', 'genderize', 'salesforce-marketing-cloud', 'salesforce-service-cloud', 'agiled', 'agility-cms',
  'clockify', 'toggl', 'ahrefs', 'semrush', 'docker-hub', 'docker_hub', 'mem', 'mem0', 'brex', 'brex-staging', 'bubble', 'project-bubble',
  'currents-api', 'news-api', 'mx-technologies', 'mx-toolbox', 'benchmark-email', 'emailable'
]

/** A data root whose one library holds the real skills above as AGIAgent files (title = the folder name). */
function realTemplatedRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-judge-e2e-'))
  const lib = path.join(root, 'dev', 'general', 'experience')
  fs.mkdirSync(lib, { recursive: true })
  SERVICES.forEach((name, i) => {
    const text = fs.readFileSync(realPath('skills', 'composiohq_awesome-claude-skills', 'composio-skills', `${name}-automation`, 'SKILL.md'), 'utf8')
    const [, front = '', body = ''] = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text) ?? []
    const description = /^description:\s*"?(.*?)"?\s*$/m.exec(front)?.[1] ?? ''
    const id = String(1_700_000_000 + i)
    fs.writeFileSync(path.join(lib, `skill_${id}.md`), skillFileText({ id, title: `${name}-automation`, usage: description, body, created: '2026-11-30T00:00:00', fetch: 1 }))
  })
  return root
}

describe.skipIf(!HAS_CHROMIUM || !HAS_REAL_DATA)('Curate reasons on real templated skills (Chromium)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }

  beforeAll(async () => {
    ;({ served, browser } = await openWorkbench(realTemplatedRoot(), { timeoutMs: 20_000 }))
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
  })

  it('says what the Zoho Mail skills share, proposes none of the template-only pairs, in English and Chinese', async () => {
    const page = browser.page
    await go(page, 'curate')
    await page.getByTestId('curate-start').click()
    await page.getByTestId('group-merge').waitFor({ timeout: 60_000 })
    const cards = page.getByTestId('proposal')
    const zoho = cards.filter({ hasText: 'zoho' }).first()
    expect(await zoho.getByTestId('proposal-reason').textContent()).toMatch(/^2 skills are the same skill: both are about “Zoho Mail”/)
    const all = (await cards.allTextContents()).join('\n')
    for (const wrong of ['genderize', 'salesforce-service-cloud', 'agility-cms', 'toggl', 'semrush', 'mem0', 'brex-staging', 'project-bubble']) expect(all).not.toContain(wrong)
    await shot(page, 'judge-curate-en')
    await expectAccessible(page, 'Curate judged (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(async () => (await zoho.getByTestId('proposal-reason').textContent()) ?? '').toMatch(/个技能是同一个技能：都是关于“Zoho Mail”/)
    await shot(page, 'judge-curate-zh')
    await expectAccessible(page, 'Curate judged (zh)')
  }, 120_000)
})
