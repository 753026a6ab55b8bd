/**
 * Generated AGIAgent task logs for the benches (scan.bench.ts, before-after.bench.ts): realistic `manager.out` files
 * and a data root of tasks (USER/output_N/logs/manager.out) made of them.
 */
import fs from 'node:fs'
import path from 'node:path'

/** One realistic log: requirements, streamed prose (Chinese + English), tool calls, results, errors, completion. */
export function makeLog(i: number, bytes: number): Buffer {
  const parts: string[] = [`Received user requirement: 任务 ${i}: build a report from data_${i}.csv\n\n`]
  if (i === 0) {
    // a task that uses skills: a query_skill call and its result, a read of a skill file
    parts.push(
      `<invoke name="query_skill">\n<parameter name="query">report from csv</parameter>\n</invoke>\n--- Tool Execution Results ---\n## Tool 1: query_skill\n` +
        `**Result:** {'status': 'success', 'skills_count': 2, 'skills': [{'skill_id': '1760000001', 'title': 'CSV report'}, {'skill_id': '1760000002', 'title': 'Plots'}]}\n` +
        `<invoke name="read_file">\n<parameter name="target_file">/Users/u/data/alice/general/experience/skill_CSV report 3.md</parameter>\n</invoke>\n`
    )
  }
  parts.push(`Currently selected directory: /Users/u/data/alice/output_${i}\nworkspace subdirectory path: /Users/u/data/alice/output_${i}/workspace\n`)
  let size = 0
  let round = 0
  while (size < bytes) {
    round++
    const chunk =
      `初始化完成，我正在分析需求中...\n💬 第 ${round} 轮：我先读取数据文件，然后生成分析脚本。The model explains its plan in some detail here, ` +
      `with a list of steps and observations about the data columns, types and missing values.\n` +
      `<invoke name="edit_file">\n<parameter name="target_file">/Users/u/data/alice/output_${i}/workspace/src/step_${round}.py</parameter>\n` +
      `<parameter name="code_edit">import pandas as pd\n\ndf = pd.read_csv('data_${i}.csv')\nprint(df.describe())\n# round ${round}\n</parameter>\n</invoke>\n` +
      `--- Tool Execution Results ---\n## Tool 1: edit_file\n**Parameters:** target_file=src/step_${round}.py\n**Result:** ✅ File written (${round * 37} bytes)\n` +
      // Tool results echo file contents and command output: the bulk of a real log.
      `## Tool 2: run_terminal_cmd\n**Result:**\n` +
      `count    1000.000000\nmean      52.310000\nstd       12.004000\nmin        3.000000\n25%       44.000000\n50%       52.000000\n75%       61.000000\nmax       99.000000\n`.repeat(12) +
      (round % 7 === 0 ? `❌ Task round ${round} execution error: KeyError 'price'\n` : '') +
      `📊 Progress: ${'█'.repeat(round % 20)}${'░'.repeat(20 - (round % 20))} ${round}%\n` +
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. '.repeat(8) +
      '\n数据分析显示销售额在第三季度显著增长，主要来自华东地区的新客户。'.repeat(4) +
      '\n'
    parts.push(chunk)
    size += Buffer.byteLength(chunk)
  }
  parts.push('TASK_COMPLETED: 报告已生成🎉 Workflow completed!\n')
  return Buffer.from(parts.join(''))
}

/**
 * Writes a data root of `tasks` tasks of about `bytesPerTask` each into `root` (ten users). A handful of distinct
 * logs reused across tasks keeps generation fast; the scanner cannot tell. Returns the bytes written.
 */
export function writeDataRoot(root: string, tasks: number, bytesPerTask: number): number {
  const templates = Array.from({ length: 8 }, (_, k) => makeLog(k, bytesPerTask))
  let total = 0
  for (let i = 0; i < tasks; i++) {
    const dir = path.join(root, `user${i % 10}`, `output_2026${String(i).padStart(6, '0')}`, 'logs')
    fs.mkdirSync(dir, { recursive: true })
    const log = templates[i % templates.length]!
    fs.writeFileSync(path.join(dir, 'manager.out'), log)
    total += log.length
  }
  return total
}
