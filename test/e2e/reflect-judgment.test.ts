/**
 * Why a task made no skill, on the Reflect screen in Chromium (issue 36): a data root with a greeting, a joke told
 * without tools, an unfinished task and one real task. Reflecting all of them makes one skill and lists the other
 * three with their reasons, in English and 简体中文, audited by axe-core and photographed
 * (artifacts/screenshots/reflect-no-skill-*.png).
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, closeWorkbench, expectAccessible, go, HAS_CHROMIUM, openWorkbench, shot, tempAgentsRoot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const invoke = (name: string, params: Record<string, string>): string => `<invoke name="${name}">\n${Object.entries(params).map(([k, v]) => `<parameter name="${k}">${v}</parameter>`).join('\n')}\n</invoke>\n`
const CALC = [
  'Received user requirement: Write a Python calculator with unit tests',
  invoke('edit_file', { target_file: 'calc.py', code_edit: 'def add(a, b):\n    return a + b' }),
  invoke('run_terminal_cmd', { command: 'python -m pytest -q' }),
  '❌ Tool run_terminal_cmd error: No module named pytest',
  invoke('run_terminal_cmd', { command: 'pip install pytest && python -m pytest -q' })
].join('\n')

function writeRoot(root: string): void {
  const task = (name: string, text: string): void => {
    fs.mkdirSync(path.join(root, 'dev', name, 'logs'), { recursive: true })
    fs.writeFileSync(path.join(root, 'dev', name, 'logs', 'manager.out'), text)
  }
  task('output_20260301_090000', 'Received user requirement: 你好\n💬 你好！有什么可以帮你？\nTASK_COMPLETED: 问候🎉 Workflow completed!\n')
  task('output_20260301_091500', 'Received user requirement: 写一个笑话，中文的\n💬 程序员最讨厌的季节是冬天。\nTASK_COMPLETED: 笑话🎉 Workflow completed!\n')
  task('output_20260301_093000', CALC.replace('Write a Python calculator', 'Write a Python CSV summariser') + '\n')
  task('output_20260301_100000', `${CALC}\nTASK_COMPLETED: calculator done🎉 Workflow completed!\n`)
  // finished now, but reflected before issue 36 while it was unfinished: its skill says "结果：未完成"
  task('output_20260301_110000', `${CALC.replace('Write a Python calculator with unit tests', '用 Python 写一个 CSV 汇总脚本并写单元测试')}\nTASK_COMPLETED: 完成🎉 Workflow completed!\n`)
  const lib = path.join(root, 'dev', 'general', 'experience')
  fs.mkdirSync(lib, { recursive: true })
  fs.writeFileSync(
    path.join(lib, 'skill_用 Python 写一个 CSV 汇总.md'),
    [
      '---',
      "skill_id: '1772100000'",
      'title: 用 Python 写一个 CSV 汇总脚本并写单元测试',
      'usage_conditions: 当需要完成类似任务时使用：用 Python 写一个 CSV 汇总脚本并写单元测试',
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
      '**任务：** 用 Python 写一个 CSV 汇总脚本并写单元测试',
      '',
      '**结果：** 未完成：日志中没有完成标记。',
      ''
    ].join('\n')
  )
}

describe.skipIf(!HAS_CHROMIUM)('Reflect: why a task made no skill, in Chromium', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let fixture = ''

  beforeAll(async () => {
    fixture = tempAgentsRoot('judgment')
    writeRoot(fixture)
    ;({ served, browser, page } = await openWorkbench(fixture))
  }, 240_000)

  afterAll(() => closeWorkbench({ browser, served }, fixture))

  it('before the run: the list offers what becomes a skill (and the frozen skill as an update) and lists the rest with why', async () => {
    await go(page, 'reflect')
    await expect.poll(() => page.getByTestId('reflect-all').textContent(), { timeout: 30_000 }).toContain('(2)')
    expect(await page.getByTestId('reflect-update').count()).toBe(1)
    const rows = await page.getByTestId('reflect-skipped-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-why')))
    expect(rows.sort()).toEqual(['greeting', 'no-work', 'unfinished'])
    await shot(page, 'reflect-before-en')
    await expectAccessible(page, 'Reflect before the run (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => page.getByTestId('reflect-skipped').locator('summary').textContent()).toBe('不会生成技能（3）')
    expect(await page.getByTestId('reflect-skipped').textContent()).toContain('问候')
    await shot(page, 'reflect-before-zh')
    await expectAccessible(page, 'Reflect before the run (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('one skill; the greeting, the joke and the unfinished task each say why they made none', async () => {
    await go(page, 'reflect')
    await page.getByTestId('reflect-all').click()
    await expect.poll(() => page.getByTestId('reflect-state').textContent(), { timeout: 60_000 }).toBe('Done')
    const list = page.getByTestId('reflect-no-skill')
    await list.waitFor()
    expect(await page.getByTestId('reflect-created-link').count()).toBe(1)
    const rows = await list.getByTestId('reflect-no-skill-row').allTextContents()
    expect(rows.sort()).toEqual([
      'output_20260301_090000 greeting',
      'output_20260301_091500 no work done',
      'output_20260301_093000 unfinished: reflected once it finishes'
    ])
    await list.scrollIntoViewIfNeeded()
    await shot(page, 'reflect-no-skill-en')
    await expectAccessible(page, 'Reflect with no-skill reasons (en)')
  })

  it('the same reasons in 简体中文', async () => {
    await page.getByTestId('language-switch').selectOption('zh')
    const list = page.getByTestId('reflect-no-skill')
    await expect.poll(() => list.locator('h4').textContent()).toBe('未生成技能（3）')
    const rows = await list.getByTestId('reflect-no-skill-row').allTextContents()
    expect(rows.sort()).toEqual(['output_20260301_090000 问候', 'output_20260301_091500 没有做实际工作', 'output_20260301_093000 未完成：完成后会再反思'])
    expect(await page.getByTestId('task-step').allTextContents()).toContain('不生成技能：问候')
    await list.scrollIntoViewIfNeeded()
    await shot(page, 'reflect-no-skill-zh')
    await expectAccessible(page, 'Reflect with no-skill reasons (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('the Overview counts what the run did: tasks, reflected, without a skill; the next step says nothing new is left', async () => {
    await go(page, 'overview')
    const counts = page.getByTestId('overview-counts')
    // the run's job.done refetches the Overview; the cached one from before may show for a moment
    await expect.poll(() => counts.textContent(), { timeout: 30_000 }).toMatch(/2\s*Reflected tasks/)
    const text = (await counts.textContent()) ?? ''
    expect(text).toMatch(/5\s*Tasks/)
    expect(text).toMatch(/2\s*Reflected tasks/)
    expect(text).toMatch(/3\s*Tasks that make no skill/)
    await counts.scrollIntoViewIfNeeded()
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.locator('main, .screen').first().evaluate((el) => el.scrollTo?.(0, 0))
    await shot(page, 'overview-counts-en')
    await expectAccessible(page, 'Overview counts (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => counts.textContent()).toContain('不会生成技能的任务')
    await page.locator('main, .screen').first().evaluate((el) => el.scrollTo?.(0, 0))
    await shot(page, 'overview-counts-zh')
    await expectAccessible(page, 'Overview counts (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('Curate shows the finished version of the frozen skill as a proposal with its reason, in both languages', async () => {
    await go(page, 'curate')
    const reason = page.getByTestId('proposal-reason').first()
    await expect.poll(() => reason.textContent(), { timeout: 30_000 }).toContain('was written while task output_20260301_110000 was unfinished')
    await reason.scrollIntoViewIfNeeded()
    await shot(page, 'curate-finished-update-en')
    await expectAccessible(page, 'Curate finished update (en)')
    await page.getByTestId('language-switch').selectOption('zh')
    await expect.poll(() => reason.textContent()).toContain('写于任务 output_20260301_110000 未完成时')
    await shot(page, 'curate-finished-update-zh')
    await page.getByTestId('language-switch').selectOption('en')
  })
})
