/**
 * Seed 003 in Chromium: memory proposals made by `skillbench memory evolve` from crafted Claude Code sessions wait
 * on the Curate screen (what found them, the memory folder, the entry itself); accepting one in the diff review
 * writes the lesson into memory/lessons.md. English and 简体中文, audited by axe-core, photographed
 * (artifacts/screenshots/memory-evolve-*.png).
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { CHROMIUM, closeWorkbench, expectAccessible, go, HAS_CHROMIUM, openWorkbench, PROJECT, shot, tempAgentsRoot } from './harness'
import type { Browser, Served } from './harness'
import { writeEvolveSessions } from '../memory/evolve-fixtures'

if (!HAS_CHROMIUM) console.warn(`[e2e] skipped: ${CHROMIUM} is missing (apt-get install -y chromium fonts-wqy-microhei)`)

describe.skipIf(!HAS_CHROMIUM)('memory proposals on the Curate screen (seed 003)', () => {
  let served: Served
  let browser: Browser & { consoleErrors: string[] }
  let page: Page
  let fixture = ''

  beforeAll(async () => {
    fixture = tempAgentsRoot('memory')
    const lib = path.join(fixture, 'dev', 'general', 'experience')
    fs.mkdirSync(lib, { recursive: true })
    fs.writeFileSync(path.join(lib, 'skill_deploy.md'), '---\nskill_id: "1790000201"\ntitle: Deploy with compose\nusage_conditions: when deploying\nquality_index: 0.6\nfetch_count: 0\n---\n\nRun docker compose up -d.\n')
    // an AGIAgent task of the user: an invented tool, a stated preference
    const task = path.join(fixture, 'dev', 'output_20260305_090000', 'logs')
    fs.mkdirSync(task, { recursive: true })
    fs.writeFileSync(
      path.join(task, 'manager.out'),
      [
        'Received user requirement: Count the ERROR lines in app.log. 记住：报告用中文写',
        'Initialization complete, analysing the requirement...',
        '<invoke name="web_fetch">\n  <parameter name="url">https://example.com/log-tips</parameter>\n</invoke>',
        '❌ Tool web_fetch error: Unknown tool: web_fetch',
        '<invoke name="read_file">\n  <parameter name="target_file">app.log</parameter>\n</invoke>',
        '<invoke name="run_terminal_cmd">\n  <parameter name="command">grep -c ERROR app.log</parameter>\n</invoke>',
        'TASK_COMPLETED: 12 ERROR lines🎉 Workflow completed!',
        ''
      ].join('\n')
    )
    const sessions = path.join(path.dirname(fixture), 'sessions')
    writeEvolveSessions(sessions)
    const bin = path.join(PROJECT, 'bin', 'skillbench.cjs')
    await promisify(execFile)(process.execPath, [bin, 'memory', 'evolve', '--workspace', path.join(fixture, 'dev'), '--claude-dir', sessions, '--library', lib, '--lang', 'zh', '--no-preferences'])
    ;({ served, browser, page } = await openWorkbench(fixture))
  }, 240_000)

  afterAll(() => closeWorkbench({ browser, served }, fixture))

  it('lists the lessons and the tool note with what found them, and accepting one writes lessons.md', async () => {
    await go(page, 'curate')
    const group = page.getByTestId('group-memory')
    await group.waitFor({ timeout: 20_000 })
    const cards = group.getByTestId('proposal')
    await expect.poll(() => cards.count(), { timeout: 10_000 }).toBe(4)
    const invented = cards.filter({ hasText: '仅使用以下已注册工具' })
    // the reason the core sent by code (memory.reason_*: the invented tool's name, the statistics), then the file
    const folder = `Memory folder: ${path.join(fs.realpathSync(fixture), 'dev')}`
    expect(await invented.getByTestId('proposal-reason').textContent()).toBe(`The agent called "web_search", a tool that does not exist, in 1 task(s); it has 2 real tool(s). Accepting adds it to memory/lessons.md. ${folder}`)
    expect(await cards.filter({ hasText: 'Bash：8 次调用中失败 3 次' }).getByTestId('proposal-reason').textContent()).toBe(`5 task(s), 12 tool call(s): Bash 8 calls, 38% errors; Read 4 calls, 0% errors. Accepting adds it to memory/procedural.md. ${folder}`)
    await shot(page, 'memory-evolve-01-curate-en')
    await expectAccessible(page, 'Curate with memory proposals (en)')

    await invented.getByTestId('proposal-review').click()
    await page.getByTestId('review-accept').click()
    await expect.poll(() => invented.textContent(), { timeout: 15_000 }).toContain('applied')
    // the banner names the file (a memory proposal has no skills), with Undo
    expect(await page.getByTestId('applied-banner').textContent()).toContain('memory/lessons.md')
    expect(await invented.getByTestId('proposal-author').textContent()).toBe('Proposed by the offline rules')
    // once applied the card says where it was written, no longer what accepting would do
    expect(await invented.getByTestId('proposal-reason').textContent()).toBe(`The agent called "web_search", a tool that does not exist, in 1 task(s); it has 2 real tool(s). Added to memory/lessons.md. ${folder}`)
    await shot(page, 'memory-evolve-05-applied-en')
    await expectAccessible(page, 'Curate with an applied memory proposal (en)')
    expect(fs.readFileSync(path.join(fixture, 'dev', 'memory', 'lessons.md'), 'utf8')).toBe('# Lessons / 行为约束\n\n- 仅使用以下已注册工具：Bash、Read；不要编造不存在的工具名（例如曾误用「web_search」）。\n')
  })

  it('Learn from tasks on the Memory screen proposes the invented tool’s lesson and the preference', async () => {
    await go(page, 'memory')
    await page.getByTestId('memory-learn-start').click()
    const result = page.getByTestId('memory-learn-result')
    await result.waitFor({ timeout: 20_000 })
    expect(await result.textContent()).toMatch(/^1 task\(s\) read: 2 proposal\(s\) for review \(1 lesson\(s\), 1 preference\(s\), 0 tool note\(s\)\); 0 already in memory or proposed\./)
    await shot(page, 'memory-evolve-03-learn-en')
    await expectAccessible(page, 'Memory, learn from tasks (en)')
    await page.getByTestId('memory-learn-review').click()
    const lesson = page.getByTestId('group-memory').getByTestId('proposal').filter({ hasText: 'web_fetch' })
    await lesson.waitFor({ timeout: 10_000 })
    expect(await lesson.textContent()).toContain('Only use the registered tools: read_file, run_terminal_cmd. Do not invent tool names (e.g. "web_fetch" was called but does not exist).')
  })

  it('the same in 简体中文', async () => {
    await page.getByTestId('language-switch').selectOption('zh')
    const group = page.getByTestId('group-memory')
    const critic = group.getByTestId('proposal').filter({ hasText: 'Critic 建议：搜索前先确认域名在白名单内' }).getByTestId('proposal-reason')
    await expect.poll(() => critic.textContent(), { timeout: 10_000 }).toMatch(/^Critic 在 1 个任务中提出了这条建议(，另有 1 条相似建议)?。接受后写入 memory\/lessons\.md。记忆文件夹：/)
    const stats = group.getByTestId('proposal').filter({ hasText: 'Bash：8 次调用中失败 3 次' }).getByTestId('proposal-reason')
    expect(await stats.textContent()).toMatch(/^5 个任务，12 次工具调用：Bash 调用 8 次，38% 出错；Read 调用 4 次，0% 出错。接受后写入 memory\/procedural\.md。记忆文件夹：/)
    const preference = group.getByTestId('proposal').filter({ hasText: '报告用中文写' }).getByTestId('proposal-reason')
    expect(await preference.textContent()).toMatch(/^用户在 1 个任务中这样说过。接受后写入 memory\/preferences\.md，并同步到长期记忆。记忆文件夹：/)
    expect(await group.getByTestId('proposal-author').first().textContent()).not.toMatch(/[A-Za-z]{4,}/)
    // the lesson accepted in English: written, in Chinese
    const applied = group.getByTestId('proposal').filter({ hasText: '仅使用以下已注册工具' }).getByTestId('proposal-reason')
    expect(await applied.textContent()).toMatch(/^智能体在 1 个任务中调用了不存在的工具“web_search”；它有 2 个真实工具。已写入 memory\/lessons\.md。记忆文件夹：/)
    await shot(page, 'memory-evolve-02-curate-zh')
    await expectAccessible(page, 'Curate with memory proposals (zh)')
    await go(page, 'memory')
    await page.getByTestId('memory-learn-start').click()
    const result = page.getByTestId('memory-learn-result')
    await result.waitFor({ timeout: 20_000 })
    // the same task again: the lesson is proposed already (in Chinese wording it is the same rule for the same tools)
    expect(await result.textContent()).toMatch(/^已读取 1 个任务：0 条提议待审阅（0 条教训、0 条偏好、0 条工具说明）；2 条已在记忆中或已提议。/)
    await shot(page, 'memory-evolve-04-learn-zh')
    await expectAccessible(page, 'Memory, learn from tasks (zh)')
    expect(browser.consoleErrors).toEqual([])
  })
})
