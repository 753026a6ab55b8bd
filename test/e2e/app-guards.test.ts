/**
 * The app's guards a newcomer met (Chromium, keyboard where it matters, English and Chinese, axe):
 * - Reflect: the skill a task wrote is a link into the skill editor in its task's line, and a run that left
 *   proposals offers "Review proposals on Curate" (reflect-links-*.png);
 * - Settings: a skill library chosen as a data root is said where it was chosen, with "Open it as a skill library
 *   instead"; a folder that does not exist is said under the field; the bundled sample data (resources/sample-data)
 *   is refused as a data root and as a library, naming its writable copy, and its files stay as they were on disk,
 *   bytes and mtimes (settings-root-*.png);
 * - Deploy: the result of a deploy undone under one library is gone when another library is picked on the Deploy
 *   screen (deploy-scope-*.png).
 * Screenshots also go to $SKILLBENCH_SHOTS_DIR when set.
 */
import fs from 'node:fs'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, closeWorkbench, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot, tempAgentsRoot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const EXTRA_SHOTS = process.env.SKILLBENCH_SHOTS_DIR
const SAMPLE = path.join(PROJECT, 'resources', 'sample-data')

async function snap(page: Page, name: string): Promise<void> {
  await shot(page, name)
  if (EXTRA_SHOTS) {
    fs.mkdirSync(EXTRA_SHOTS, { recursive: true })
    await page.screenshot({ path: path.join(EXTRA_SHOTS, `${name}.png`) })
  }
}

const invoke = (name: string, params: Record<string, string>): string => `<invoke name="${name}">\n${Object.entries(params).map(([k, v]) => `<parameter name="${k}">${v}</parameter>`).join('\n')}\n</invoke>\n`
const CALC = [
  'Received user requirement: Write a Python calculator with unit tests',
  invoke('edit_file', { target_file: 'calc.py', code_edit: 'def add(a, b):\n    return a + b' }),
  invoke('run_terminal_cmd', { command: 'python -m pytest -q' }),
  '❌ Tool run_terminal_cmd error: No module named pytest',
  invoke('run_terminal_cmd', { command: 'pip install pytest && python -m pytest -q' })
].join('\n')

/** One task that makes a skill, and one finished since its skill was written unfinished (a proposal for review). */
function writeRoot(root: string): void {
  const task = (name: string, text: string): void => {
    fs.mkdirSync(path.join(root, 'dev', name, 'logs'), { recursive: true })
    fs.writeFileSync(path.join(root, 'dev', name, 'logs', 'manager.out'), text)
  }
  task('output_20260301_100000', `${CALC}\nTASK_COMPLETED: calculator done🎉 Workflow completed!\n`)
  task('output_20260301_110000', `${CALC.replace('Write a Python calculator with unit tests', 'Summarise a CSV file in Python with unit tests')}\nTASK_COMPLETED: done🎉 Workflow completed!\n`)
  const lib = path.join(root, 'dev', 'general', 'experience')
  fs.mkdirSync(lib, { recursive: true })
  fs.writeFileSync(
    path.join(lib, 'skill_csv_summary.md'),
    [
      '---',
      "skill_id: '1772100000'",
      'title: Summarise a CSV file in Python with unit tests',
      'usage_conditions: When a CSV file needs a summary in Python',
      'quality_index: 0.5',
      'fetch_count: 0',
      "related_code: ''",
      'task_directories:',
      '- output_20260301_110000',
      "created_at: '2026-03-01T10:40:00'",
      "updated_at: '2026-03-01T10:40:00'",
      "user_preferences: ''",
      '---',
      '',
      '**Task:** Summarise a CSV file in Python with unit tests',
      '',
      '**Outcome:** Not finished: no completion marker in the log.',
      ''
    ].join('\n')
  )
}

/** Every file and folder below `dir`: bytes and mtime. */
function snapshot(dir: string): string {
  const out: string[] = []
  for (const rel of (fs.readdirSync(dir, { recursive: true }) as string[]).sort()) {
    const abs = path.join(dir, rel)
    const st = fs.lstatSync(abs)
    out.push(`${rel} ${st.mtimeMs} ${st.isFile() ? fs.readFileSync(abs).toString('base64') : st.isDirectory() ? 'dir' : 'other'}`)
  }
  return out.join('\n')
}

async function focusedTestId(page: Page): Promise<string | null> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)
}

describe.skipIf(!HAS_CHROMIUM)('app guards (Chromium)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let fixture = ''
  let skillsFolder = ''
  let devLib = ''

  beforeAll(async () => {
    fixture = tempAgentsRoot('appguards')
    writeRoot(fixture)
    // a downloaded skill library: one folder per skill with its SKILL.md, as a newcomer might pick for a data root
    skillsFolder = path.join(path.dirname(fixture), 'downloaded-skills')
    fs.mkdirSync(path.join(skillsFolder, 'csv-tools'), { recursive: true })
    fs.writeFileSync(path.join(skillsFolder, 'csv-tools', 'SKILL.md'), '---\nname: csv-tools\ndescription: Summarise CSV files\n---\n\nRead the CSV with pandas.\n')
    ;({ served, browser, page } = await openWorkbench(fixture))
  }, 240_000)

  afterAll(() => closeWorkbench({ browser, served }, fixture))

  it('Reflect: the created skill is a link into the editor in its task line; proposals left → Review proposals on Curate', async () => {
    await go(page, 'reflect')
    await expect.poll(() => page.getByTestId('reflect-all').isEnabled(), { timeout: 30_000 }).toBe(true)
    await page.getByTestId('reflect-all').click()
    await expect.poll(() => page.getByTestId('reflect-state').textContent(), { timeout: 60_000 }).toBe('Done')
    const link = page.getByTestId('reflect-task-skill')
    await expect.poll(() => link.count()).toBe(1)
    const name = (await link.textContent()) ?? ''
    expect(name).toMatch(/^skill_.*\.md$/)
    expect(await link.getAttribute('aria-label')).toBe(`Open ${name} in the skill editor`)
    const step = page.getByTestId('task-step').filter({ has: link })
    expect(await step.textContent()).toBe(`Skill generated: ${name}`)
    const next = page.getByTestId('reflect-next')
    expect(await next.textContent()).toContain('Reflection left 1 proposal(s) for existing skills')
    expect(await next.getByTestId('reflect-review-proposals').textContent()).toBe('Review proposals on Curate')
    await page.getByTestId('reflect-summary').scrollIntoViewIfNeeded()
    await snap(page, 'reflect-links-en')
    await expectAccessible(page, 'Reflect result links (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => next.getByTestId('reflect-review-proposals').textContent()).toBe('到“整理”中审阅提议')
    expect(await link.getAttribute('aria-label')).toBe(`在技能编辑器中打开 ${name}`)
    expect(await step.textContent()).toContain(name)
    await snap(page, 'reflect-links-zh')
    await expectAccessible(page, 'Reflect result links (zh)')
    await page.getByTestId('language-switch').selectOption('en')
    // by keyboard: the link is a focusable button; Enter opens the editor on that skill
    await link.focus()
    expect(await focusedTestId(page)).toBe('reflect-task-skill')
    await page.keyboard.press('Enter')
    await page.getByTestId('screen-editor').waitFor()
    await go(page, 'reflect')
    const review = page.getByTestId('reflect-review-proposals')
    await review.focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('screen-curate').waitFor()
    await expect.poll(() => page.getByTestId('proposal').count(), { timeout: 30_000 }).toBeGreaterThan(0)
  })

  it('Settings: a skill library as a data root is said where it was chosen, with the fix; a missing folder is said under the field', async () => {
    await go(page, 'settings')
    const input = page.getByTestId('root-input')
    await input.fill('/no/such/folder')
    await input.press('Enter')
    const problem = page.getByTestId('root-input-problem')
    await problem.waitFor()
    expect(await problem.textContent()).toContain('folder not found: /no/such/folder')
    expect(await input.getAttribute('aria-invalid')).toBe('true')
    expect(await input.getAttribute('aria-describedby')).toBe('root-input-problem')
    await snap(page, 'settings-root-missing-en')
    await expectAccessible(page, 'Settings, missing folder (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => problem.textContent()).toContain('找不到文件夹：/no/such/folder')
    await snap(page, 'settings-root-missing-zh')
    await page.getByTestId('language-switch').selectOption('en')

    await input.fill(skillsFolder)
    await input.press('Enter')
    const notice = page.getByTestId('root-problem')
    await notice.waitFor()
    const real = fs.realpathSync(skillsFolder)
    expect(await notice.textContent()).toContain(`${real} looks like a skill library, not an agent's data root`)
    const fix = notice.getByTestId('root-problem-fix')
    expect(await fix.textContent()).toBe('Open it as a skill library instead')
    await notice.scrollIntoViewIfNeeded()
    await snap(page, 'settings-root-library-en')
    await expectAccessible(page, 'Settings, a skill library as a data root (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => fix.textContent()).toBe('改为作为技能库打开')
    expect(await notice.textContent()).toContain('看起来是一个技能库，而不是智能体的数据根目录')
    await snap(page, 'settings-root-library-zh')
    await expectAccessible(page, 'Settings, a skill library as a data root (zh)')
    await page.getByTestId('language-switch').selectOption('en')
    // by keyboard: the fix opens it as a library and takes it off the data roots
    await fix.focus()
    await page.keyboard.press('Enter')
    await page.getByTestId('screen-skills').waitFor()
    await expect.poll(() => page.getByTestId('library-picker').inputValue()).toBe(real)
    await go(page, 'settings')
    expect(await page.getByTestId('settings-root').allTextContents()).toHaveLength(1)
    expect(await page.getByTestId('root-problem').count()).toBe(0)
  })

  it('Settings: the bundled sample data is refused as a data root and as a library, naming its copy; its files unchanged on disk', async () => {
    const before = snapshot(SAMPLE)
    const copy = path.join(served.configDir, 'sample-data')
    await go(page, 'settings')
    const input = page.getByTestId('root-input')
    await input.fill(SAMPLE)
    await input.press('Enter')
    const problem = page.getByTestId('root-input-problem')
    await problem.waitFor()
    expect(await problem.textContent()).toContain('is in the sample data bundled with Skillbench, which the app never changes')
    expect(await problem.textContent()).toContain(copy)
    await problem.scrollIntoViewIfNeeded()
    await snap(page, 'settings-root-sample-en')
    await expectAccessible(page, 'Settings, the bundled sample refused (en)')
    const folder = page.getByTestId('folder-input')
    await folder.fill(path.join(SAMPLE, 'alice', 'general', 'experience'))
    await folder.press('Enter')
    const folderProblem = page.getByTestId('folder-input-problem')
    await folderProblem.waitFor()
    expect(await folderProblem.textContent()).toContain(path.join(copy, 'alice', 'general', 'experience'))
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => folderProblem.textContent()).toContain('位于安装自带的示例数据中，应用从不修改它')
    await folderProblem.scrollIntoViewIfNeeded()
    await snap(page, 'settings-root-sample-zh')
    await expectAccessible(page, 'Settings, the bundled sample refused (zh)')
    await page.getByTestId('language-switch').selectOption('en')
    // neither is listed; the bundled files are as they were, and the checkout is clean there
    const libs = await page.getByTestId('library-picker').locator('option').evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value))
    expect(libs.some((l) => l.startsWith(fs.realpathSync(SAMPLE)))).toBe(false)
    expect(snapshot(SAMPLE)).toBe(before)
    expect(execFileSync('git', ['status', '--porcelain', '--', SAMPLE], { cwd: PROJECT, encoding: 'utf8' })).toBe('')
  })

  it('Deploy: a result undone under one library is gone when another library is picked there', async () => {
    devLib = fs.realpathSync(path.join(served.root, 'dev', 'general', 'experience'))
    await page.getByTestId('library-picker').selectOption(devLib)
    await go(page, 'deploy')
    await expect.poll(() => page.locator('[data-testid="deploy-row"][data-action="create"]').count(), { timeout: 30_000 }).toBeGreaterThan(0)
    await page.getByTestId('deploy-run').click()
    const dialog = page.getByTestId('deploy-confirm')
    await dialog.waitFor()
    await expect.poll(() => dialog.getByTestId('deploy-confirm-run').isEnabled()).toBe(true)
    await dialog.getByTestId('deploy-confirm-run').click()
    const done = page.getByTestId('deploy-done')
    await done.waitFor()
    await done.getByTestId('deploy-undo').click()
    await expect.poll(() => done.textContent()).toContain('Undone')
    await page.getByTestId('library-picker').selectOption(fs.realpathSync(skillsFolder))
    await expect.poll(() => page.locator('[data-testid="deploy-row"]').count(), { timeout: 30_000 }).toBe(1)
    expect(await page.getByTestId('deploy-done').count()).toBe(0)
    expect(await page.getByTestId('screen-deploy').textContent()).not.toContain('Undone')
    await snap(page, 'deploy-scope-en')
    await expectAccessible(page, 'Deploy after another library is picked (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => page.getByTestId('deploy-run').textContent()).not.toBe('Deploy')
    expect(await page.getByTestId('deploy-done').count()).toBe(0)
    await snap(page, 'deploy-scope-zh')
    await expectAccessible(page, 'Deploy after another library is picked (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  })
})

