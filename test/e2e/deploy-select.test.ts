/**
 * What each agent sees, end to end in Chromium: disable a skill for Claude Code from the Deploy screen (its placed
 * copy removed by the next deploy, back when enabled), save a deploy profile and deploy through it, keyboard only
 * for the profile form, in English and 简体中文, audited by axe. Screenshots: artifacts/screenshots/7N-*.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot } from './harness'
import type { Browser, Served } from './harness'

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

describe.skipIf(!HAS_CHROMIUM)('what each agent sees (web mode)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let claudeSkills = ''
  let names: string[] = []

  // a long name is shown cut after a word, with the full name in data-full-name (and for screen readers)
  const rows = (p: Page): Promise<string[]> =>
    p.getByTestId('deploy-row').evaluateAll((rs) =>
      rs.map((r) => {
        const name = r.querySelector('th .strong')
        return `${name?.getAttribute('data-full-name') ?? name?.textContent ?? ''}:${r.getAttribute('data-action') ?? ''}`
      })
    )

  beforeAll(async () => {
    ;({ served, browser, page } = await openWorkbench(FIXTURE, { timeoutMs: 20_000 }))
    claudeSkills = path.join(path.dirname(served.root), 'home', '.claude', 'skills')
    await page.getByTestId('overview-counts').waitFor()
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
  })

  it('disables a skill for Claude Code: left out of the deploy, removed when it was placed, back when enabled', async () => {
    await go(page, 'deploy')
    await page.getByTestId('deploy-table').waitFor()
    names = (await rows(page)).map((r) => r.split(':')[0]!)
    expect(names.length).toBeGreaterThanOrEqual(2)
    expect(await deployConfirmed(page)).toBe(`${names.length} written new · 0 updated · 0 left alone`)
    await expect.poll(() => fs.existsSync(path.join(claudeSkills, names[0]!, 'SKILL.md'))).toBe(true)
    await page.getByTestId(`deploy-disable-${names[0]}`).click()
    await page.getByTestId('deploy-disabled').waitFor()
    expect(await page.getByTestId('deploy-disabled').textContent()).toContain(names[0])
    await expect.poll(() => rows(page)).toContain(`${names[0]}:remove`)
    expect(await page.getByTestId('deploy-row').filter({ hasText: names[0]! }).textContent()).toContain('Disabled here: will be removed')
    await shot(page, '70-deploy-disabled-en')
    await expectAccessible(page, 'Deploy with a disabled skill (en)')
    expect(await deployConfirmed(page)).toBe(`0 written new · 0 updated · ${names.length - 1} left alone 1 removed (retired or left out here).`)
    await expect.poll(() => fs.existsSync(path.join(claudeSkills, names[0]!))).toBe(false)
    expect(fs.existsSync(path.join(claudeSkills, names[1]!, 'SKILL.md'))).toBe(true)
    // the library keeps it, with the choice recorded for the team
    const file = (fs.readdirSync(path.dirname(served.root), { recursive: true }) as string[]).find((f) => path.basename(f) === 'deploy-profiles.json')
    expect(file).toBeTruthy()
    const config = JSON.parse(fs.readFileSync(path.join(path.dirname(served.root), file!), 'utf8')) as { disabled: Record<string, string[]> }
    expect(config.disabled.claude).toEqual([names[0]])
    await page.getByTestId(`deploy-enable-${names[0]}`).click()
    await expect.poll(() => rows(page)).toContain(`${names[0]}:create`)
    await deployConfirmed(page)
    await expect.poll(() => fs.existsSync(path.join(claudeSkills, names[0]!, 'SKILL.md'))).toBe(true)
  })

  it('saves a profile with the keyboard and deploys through it', async () => {
    await page.getByTestId('deploy-profiles').locator('summary').focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('profile-name').focus()
    await page.keyboard.type('one-skill')
    await page.keyboard.press('Tab')
    await page.keyboard.type('claude')
    await page.keyboard.press('Tab')
    await page.keyboard.type(names[1]!)
    await page.keyboard.press('Enter') // submits the form
    await expect.poll(() => page.getByTestId('deploy-profile').locator('option').allTextContents()).toContain('one-skill')
    await page.getByTestId('deploy-profile').selectOption('one-skill')
    await expect.poll(async () => (await rows(page)).filter((r) => !r.endsWith(':remove')).map((r) => r.split(':')[0])).toEqual([names[1]])
    expect(await page.getByTestId('deploy-row').filter({ hasText: names[0]! }).textContent()).toContain('Not in this profile: will be removed')
    await shot(page, '71-deploy-profile-en')
    await expectAccessible(page, 'Deploy through a profile (en)')
    await deployConfirmed(page)
    await expect.poll(() => fs.readdirSync(claudeSkills).filter((n) => !n.startsWith('.'))).toEqual([names[1]])
  })

  it('the same in 简体中文 passes the audit', async () => {
    await page.getByTestId('language-switch').selectOption('zh')
    await go(page, 'deploy')
    await page.getByTestId('deploy-profile').selectOption('')
    await page.getByTestId('deploy-table').waitFor()
    await page.getByTestId(`deploy-disable-${names[1]}`).click()
    await page.getByTestId('deploy-disabled').waitFor()
    if ((await page.getByTestId('deploy-profiles').getAttribute('open')) === null) await page.getByTestId('deploy-profiles').locator('summary').click()
    await expect.poll(() => page.getByTestId('deploy-row').filter({ hasText: names[1]! }).textContent()).toContain('已在此停用')
    await expect.poll(() => page.getByTestId('screen-deploy').textContent()).toContain('部署配置')
    await shot(page, '72-deploy-select-zh')
    await expectAccessible(page, 'Deploy, profiles and a disabled skill (zh)')
    await page.getByTestId(`deploy-enable-${names[1]}`).click()
    await page.getByTestId('language-switch').selectOption('en')
  })
})
