import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** One AGIAgent task folder to write: its manager log, workspace files, and age. */
export interface TaskSpec {
  /** `user/output_x` or `output_x` (directly under the root). */
  dir: string
  log: string
  workspace?: Record<string, string>
  /** Seconds before now (newest first ordering). */
  ageSec?: number
}

/** A calculator log in AGIAgent's streamed format, with an error fixed by a retry. */
export const CALC_LOG = [
  'Received user requirement: Write a Python calculator with unit tests',
  'Initialization complete, analysing the requirement...',
  '<invoke name="edit_file">',
  '  <parameter name="target_file">calc.py</parameter>',
  '  <parameter name="code_edit">def add(a, b):\n    return a + b\n</parameter>',
  '</invoke>',
  '<invoke name="run_terminal_cmd">',
  '  <parameter name="command">python -m pytest -q</parameter>',
  '</invoke>',
  '❌ Tool run_terminal_cmd error: No module named pytest',
  '<invoke name="run_terminal_cmd">',
  '  <parameter name="command">pip install pytest && python -m pytest -q</parameter>',
  '</invoke>',
  'TASK_COMPLETED: calculator done🎉 Workflow completed!',
  ''
].join('\n')

export const JOKE_LOG = [
  '🏷️ AGIAgentClient using agent ID: manager',
  '🚀 Executing task: 你好，写一个笑话，中文的',
  'Received user requirement: 你好，写一个笑话，中文的',
  '初始化完成，我正在分析需求中...',
  '💬 程序员最讨厌的季节是什么？冬天，因为有 bug 冻不死。',
  'TASK_COMPLETED: 已完成中文笑话创作任务🎉 Workflow completed!',
  ''
].join('\n')

export const SCRAPER_LOG = [
  'Received user requirement: Scrape the titles of example.com into titles.txt',
  '<invoke name="edit_file">',
  '  <parameter name="target_file">scrape.py</parameter>',
  '  <parameter name="code_edit">import requests</parameter>',
  '</invoke>',
  '<invoke name="run_terminal_cmd">',
  '  <parameter name="command">python scrape.py</parameter>',
  '</invoke>',
  '<invoke name="read_file">',
  '  <parameter name="target_file">titles.txt</parameter>',
  '</invoke>',
  'TASK_COMPLETED: titles saved🎉 Workflow completed!',
  ''
].join('\n')

/** Writes a data root into a fresh temp folder and returns its path. */
export function makeRoot(tasks: TaskSpec[]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-reflect-root-'))
  const now = Date.now() / 1000
  for (const t of tasks) {
    const dir = path.join(root, t.dir)
    fs.mkdirSync(path.join(dir, 'logs'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'logs', 'manager.out'), t.log)
    for (const [rel, text] of Object.entries(t.workspace ?? {})) {
      fs.mkdirSync(path.dirname(path.join(dir, 'workspace', rel)), { recursive: true })
      fs.writeFileSync(path.join(dir, 'workspace', rel), text)
    }
    const when = now - (t.ageSec ?? 0)
    // the scanner may date a task by its folder or by its newest log: set both
    fs.utimesSync(path.join(dir, 'logs', 'manager.out'), when, when)
    fs.utimesSync(path.join(dir, 'logs'), when, when)
    fs.utimesSync(dir, when, when)
  }
  return root
}

/** Every file under `dir` (relative, sorted), to prove what a run wrote and where. */
export function listFiles(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const abs = path.join(d, e.name)
      if (e.isDirectory()) walk(abs)
      else out.push(path.relative(dir, abs).split(path.sep).join('/'))
    }
  }
  if (fs.existsSync(dir)) walk(dir)
  return out.sort()
}

/** Skill files (`skill_*.md`) directly in a library folder. */
export function skillFiles(libDir: string): string[] {
  return fs.existsSync(libDir) ? fs.readdirSync(libDir).filter((f) => /^skill_.*\.md$/.test(f)).sort() : []
}
