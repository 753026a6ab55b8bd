/**
 * Why a task made no skill, on the Reflect screen in Chromium (issue 36): a data root with a greeting, a joke told
 * without tools, an unfinished task and one real task. Reflecting all of them makes one skill and lists the other
 * three with their reasons, in English and 简体中文, audited by axe-core and photographed
 * (artifacts/screenshots/reflect-no-skill-*.png).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, expectAccessible, go, HAS_CHROMIUM, openWorkbench, shot } from './harness'
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
}

describe.skipIf(!HAS_CHROMIUM)('Reflect: why a task made no skill, in Chromium', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let fixture = ''

  beforeAll(async () => {
    fixture = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-e2e-judgment-')), 'agents-data')
    writeRoot(fixture)
    ;({ served, browser, page } = await openWorkbench(fixture))
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    if (fixture) fs.rmSync(path.dirname(fixture), { recursive: true, force: true })
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
})
