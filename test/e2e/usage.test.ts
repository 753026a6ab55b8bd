/**
 * The usage evidence end to end in Chromium (issue 14): a data root whose tasks used the library's skills (a
 * query_skill result, reads of skill files; one skill's tasks fail far more often than the others), a Codex
 * rollout under the home folder that read one of them. Walks the Overview's two lists, the Skills column, the
 * editor's panel and its link to a trace, the review proposal in Curate — in English and 简体中文, each screen
 * audited by axe-core and photographed (artifacts/screenshots/usage-*.png).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { buildRenderer, CHROMIUM, expectAccessible, go, HAS_CHROMIUM, launch, serve, shot } from './harness'
import type { Browser, Served } from './harness'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

const DAY = 86_400_000
const pad = (n: number): string => String(n).padStart(2, '0')
/** `output_YYYYMMDD_HHMMSS` of a time `daysAgo` days back (local time, as AGIAgent names folders). */
function taskName(daysAgo: number, minute: number): string {
  const d = new Date(Date.now() - daysAgo * DAY)
  return `output_${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}_10${pad(minute)}00`
}
function localIso(daysAgo: number): string {
  const d = new Date(Date.now() - daysAgo * DAY)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T10:00:00.000000`
}

function skill(id: string, title: string, body: string, createdDaysAgo: number): string {
  const at = localIso(createdDaysAgo)
  return `---\nskill_id: '${id}'\ntitle: ${title}\nusage_conditions: when ${title.toLowerCase()} is needed\nquality_index: 0.6\nfetch_count: 0\nrelated_code: ''\ntask_directories: []\ncreated_at: '${at}'\nupdated_at: '${at}'\nlast_used_at: null\nuser_preferences: ''\n---\n\n# ${title}\n\n${body}\n`
}

const invoke = (name: string, params: Record<string, string>): string => `<invoke name="${name}">\n${Object.entries(params).map(([k, v]) => `<parameter name="${k}">${v}</parameter>`).join('\n')}\n</invoke>\n`

/** The data root: user dev's library and 15 tasks (6 read the deploy checklist, 4 of them fail; 2 query the CSV report; 7 use nothing, 1 fails). */
function writeRoot(root: string): void {
  const lib = path.join(root, 'dev', 'general', 'experience')
  fs.mkdirSync(lib, { recursive: true })
  fs.writeFileSync(path.join(lib, 'skill_Deploy checklist.md'), skill('1790000001', 'Deploy checklist', '1. Skip the smoke tests to save time.\n2. Deploy.', 60))
  fs.writeFileSync(path.join(lib, 'skill_CSV report.md'), skill('1790000002', 'CSV report', '1. Read the CSV with pandas.\n2. Write summary.md.', 60))
  fs.writeFileSync(path.join(lib, 'skill_Forgotten notes.md'), skill('1790000003', 'Forgotten notes', 'Notes nobody reads.', 90))
  fs.writeFileSync(path.join(lib, 'skill_Fresh idea.md'), skill('1790000004', 'Fresh idea', 'Made two days ago.', 2))
  const task = (name: string, text: string): void => {
    fs.mkdirSync(path.join(root, 'dev', name, 'logs'), { recursive: true })
    fs.writeFileSync(path.join(root, 'dev', name, 'logs', 'manager.out'), text)
  }
  for (let i = 0; i < 6; i++) {
    const read = invoke('read_file', { target_file: `${lib}/skill_Deploy checklist.md` })
    task(taskName(3 + i, i), `Received user requirement: deploy release ${i}\n\n${read}` + (i < 4 ? `❌ Task round 1 execution error: smoke test ${i} failed in production\n` : 'TASK_COMPLETED: deployed\n'))
  }
  for (let i = 0; i < 2; i++) {
    task(
      taskName(4 + i, 20 + i),
      `Received user requirement: monthly CSV report ${i}\n\n${invoke('query_skill', { query: 'csv report' })}--- Tool Execution Results ---\n## Tool 1: query_skill\n**Result:** {'skills': [{'skill_id': '1790000002'}]}\nTASK_COMPLETED: report written\n`
    )
  }
  for (let i = 0; i < 7; i++) {
    task(taskName(2 + i, 40 + i), `Received user requirement: other work ${i}\n\n${invoke('edit_file', { target_file: 'a.py', code_edit: 'x' })}` + (i === 0 ? '❌ Task round 1 execution error: typo\n' : 'TASK_COMPLETED: done\n'))
  }
}

/** A Codex rollout that printed the CSV report's skill file. */
function writeHome(home: string, libraryHint: string): void {
  const dir = path.join(home, '.codex', 'sessions', 'usage')
  fs.mkdirSync(dir, { recursive: true })
  const at = new Date(Date.now() - DAY).toISOString()
  const recs = [
    { timestamp: at, type: 'session_meta', payload: { id: 'u1', cwd: '/home/u/app' } },
    { timestamp: at, type: 'event_msg', payload: { type: 'user_message', message: 'Summarise the orders CSV the usual way' } },
    { timestamp: at, type: 'response_item', payload: { type: 'function_call', name: 'exec_command', call_id: 'k1', arguments: JSON.stringify({ cmd: `cat "${libraryHint}/skill_CSV report.md"` }) } },
    { timestamp: at, type: 'response_item', payload: { type: 'function_call_output', call_id: 'k1', output: 'Process exited with code 0' } },
    { timestamp: at, type: 'event_msg', payload: { type: 'task_complete', last_agent_message: 'summary.md written' } }
  ]
  fs.writeFileSync(path.join(dir, 'rollout-usage-u1.jsonl'), recs.map((r) => JSON.stringify(r)).join('\n') + '\n')
}

describe.skipIf(!HAS_CHROMIUM)('usage evidence in Chromium', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let fixture = ''

  beforeAll(async () => {
    const rendererDir = await buildRenderer()
    fixture = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-e2e-usage-')), 'agents-data')
    writeRoot(fixture)
    // another machine's path to the same library: the file name identifies the skill
    served = await serve(fixture, rendererDir, { home: (home) => writeHome(home, '/Users/other/agents-data/dev/general/experience') })
    browser = await launch()
    page = browser.page
    page.setDefaultTimeout(30_000)
    await page.goto(served.url)
  }, 240_000)

  afterAll(async () => {
    await browser?.close()
    await served?.stop()
    if (fixture) fs.rmSync(path.dirname(fixture), { recursive: true, force: true })
  })

  it('Overview: never used in 30 days, and used then failing more often than baseline', async () => {
    await page.getByTestId('usage-unused-item').first().waitFor()
    expect(await page.getByTestId('usage-unused-item').allTextContents()).toEqual(['Forgotten notesnever usedOpenRetire'])
    const failing = await page.getByTestId('usage-failing-item').allTextContents()
    expect(failing).toEqual(['Deploy checklist4 of 6 went wrong (67%) · baseline 1/7 (14%)Open'])
    await page.getByTestId('usage-lists').scrollIntoViewIfNeeded()
    await shot(page, 'usage-01-overview-en')
    await expectAccessible(page, 'Overview with usage (en)')
  })

  it('Skills: uses, last use and the comparison per skill', async () => {
    await go(page, 'skills')
    await page.getByTestId('skill-usage').first().waitFor()
    const rows = await page.getByTestId('skill-row').allTextContents()
    // the last use (file or logs, whichever is later) is in the one Last used column, before the usage cell
    expect(rows.find((r) => r.includes('Deploy checklist'))).toMatch(/\d{4}-\d\d-\d\d[^|]*6 uses in the logs4\/6 went wrong, baseline 14%/)
    expect(rows.find((r) => r.includes('CSV report'))).toMatch(/\d{4}-\d\d-\d\d[^|]*3 uses in the logstoo few uses to tell \(3\/3\)/)
    expect(rows.find((r) => r.includes('Forgotten notes'))).toContain('no use found')
    await shot(page, 'usage-02-skills-en')
    await expectAccessible(page, 'Skills with usage (en)')
  })

  it('Editor: the verdict, the baseline, the tasks; a task opens its trace', async () => {
    await page.getByTestId('skill-row').filter({ hasText: 'CSV report' }).getByTestId('skill-open').click()
    const panel = page.getByTestId('usage-panel')
    await panel.getByTestId('usage-verdict').waitFor()
    expect(await panel.getByTestId('usage-verdict').textContent()).toBe('Too few uses to tell whether it helps: it is judged from 5 tasks on.')
    expect(await panel.getByTestId('usage-task').count()).toBe(3)
    await page.locator('.monaco-editor').first().waitFor()
    await panel.scrollIntoViewIfNeeded()
    await shot(page, 'usage-03-editor-en')
    await expectAccessible(page, 'Editor usage panel (en)')
    // the Codex task opens in Workspaces with its session folder picked
    await panel.getByTestId('usage-task-link').filter({ hasText: 'rollout-usage-u1#1' }).click()
    await page.getByTestId('screen-workspaces').waitFor()
    await expect.poll(() => page.getByTestId('task-trace').textContent()).toContain('Summarise the orders CSV')
    await shot(page, 'usage-04-trace-en')
  })

  it('Curate: a review of the failing skill, with its failing tasks, kept as it is', async () => {
    await go(page, 'curate')
    await page.getByTestId('curate-start').click()
    const group = page.getByTestId('group-review')
    await group.waitFor()
    expect(await group.getByTestId('proposal-reason').textContent()).toMatch(/^4 of the 6 tasks that used it went wrong afterwards \(67%\), against 1\/7 \(14%\)/)
    expect(await group.getByTestId('usage-task').count()).toBe(4)
    // the forgotten skill is proposed for cleanup; the ones agents used are not
    expect(await page.getByTestId('group-cleanup').textContent()).toContain('Forgotten notes')
    expect(await page.getByTestId('group-cleanup').textContent()).not.toContain('Deploy checklist')
    await shot(page, 'usage-05-curate-en')
    await expectAccessible(page, 'Curate with a review (en)')
    await group.getByTestId('proposal-review').click()
    const dialog = page.getByTestId('review-dialog')
    await dialog.waitFor()
    expect(await dialog.getByTestId('review-accept').isDisabled()).toBe(true)
    await dialog.locator('.monaco-diff-editor').first().waitFor()
    await shot(page, 'usage-06-review-en')
    await expectAccessible(page, 'Review dialog (en)')
    await dialog.getByTestId('review-reject').click()
    await dialog.waitFor({ state: 'detached' })
  })

  it('the same in 简体中文', async () => {
    await page.getByTestId('language-switch').selectOption('zh')
    await go(page, 'overview')
    await page.getByTestId('usage-failing-item').first().waitFor()
    expect(await page.getByTestId('usage-failing').textContent()).toContain('被使用后任务失败多于基线')
    expect(await page.getByTestId('usage-unused').textContent()).toContain('30 天内没有任何智能体使用')
    await page.getByTestId('usage-lists').scrollIntoViewIfNeeded()
    await shot(page, 'usage-01-overview-zh')
    await expectAccessible(page, 'Overview with usage (zh)')
    await go(page, 'skills')
    await page.getByTestId('skill-usage').first().waitFor()
    expect((await page.getByTestId('skill-row').allTextContents()).join('\n')).toContain('4/6 出错，基线 14%')
    await shot(page, 'usage-02-skills-zh')
    await expectAccessible(page, 'Skills with usage (zh)')
    await page.getByTestId('skill-row').filter({ hasText: 'Deploy checklist' }).getByTestId('skill-open').click()
    const panel = page.getByTestId('usage-panel')
    await panel.getByTestId('usage-verdict').waitFor()
    await page.locator('.monaco-editor').first().waitFor()
    expect(await panel.getByTestId('usage-verdict').textContent()).toBe('使用它的任务比基线更常出错：6 个中 4 个（67%），基线为 1/7 (14%)。请查看下面出错的任务。')
    await panel.scrollIntoViewIfNeeded()
    await shot(page, 'usage-03-editor-zh')
    await expectAccessible(page, 'Editor usage panel (zh)')
    await go(page, 'curate')
    await page.getByTestId('curate-tab-plan').click()
    await page.getByTestId('group-cleanup').waitFor()
    await shot(page, 'usage-05-curate-zh')
    await expectAccessible(page, 'Curate (zh)')
    await page.getByTestId('language-switch').selectOption('en')
  })

  it('no console errors', () => {
    expect(browser.consoleErrors).toEqual([])
  })
})
