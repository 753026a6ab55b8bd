/**
 * Offline reflection rate (issue 3 goal: ≥ 200 tasks/s end to end, including the scan and writing the skills).
 * Generates a data root of AGIAgent task folders in a temp dir, runs `runReflection` offline, and prints a
 * Markdown table. Also times the pure reflector alone and a rerun (everything already reflected).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { defaultReflectionDeps } from '../src/main/reflect/default-deps'
import { openLibrary } from '../src/main/store/library'
import { reflectOffline } from '../src/main/reflect/offline-reflector'
import { runReflection } from '../src/main/reflect/run-reflection'

const TASKS = Number(process.env.REFLECT_BENCH_TASKS ?? 1000)
const GOAL = 200

function taskLog(i: number): string {
  const zh = i % 3 === 0
  const lines = [zh ? `Received user requirement: 用 Python 写第 ${i} 个数据处理脚本，并生成报告` : `Received user requirement: Write data script number ${i} and a report`]
  for (let k = 0; k < 12; k++) {
    lines.push('<invoke name="edit_file">', `  <parameter name="target_file">src/mod_${k % 4}.py</parameter>`, `  <parameter name="code_edit">def f${k}():\n    return ${k}\n</parameter>`, '</invoke>')
    lines.push('<invoke name="run_terminal_cmd">', `  <parameter name="command">python -m pytest -q tests/test_${k}.py</parameter>`, '</invoke>')
    if (k === 5) lines.push('❌ Tool run_terminal_cmd error: assertion failed in test_5')
    lines.push(`💬 step ${k} done. ` + 'x'.repeat(200))
  }
  lines.push('TASK_COMPLETED: done🎉 Workflow completed!', '')
  return lines.join('\n')
}

/** CPU seconds (user + system) this process used since `start`. */
function cpuSeconds(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start)
  return (d.user + d.system) / 1e6
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-reflect-'))
  try {
    for (let i = 0; i < TASKS; i++) {
      const user = ['alice', 'bob', 'carol', 'dave'][i % 4]!
      const dir = path.join(root, user, `output_2026${String(i).padStart(6, '0')}`)
      fs.mkdirSync(path.join(dir, 'logs'), { recursive: true })
      fs.writeFileSync(path.join(dir, 'logs', 'manager.out'), taskLog(i))
    }
    const deps = defaultReflectionDeps()
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const summary = await runReflection({ rootDir: root }, deps)
    const endToEnd = (performance.now() - t0) / 1000
    const endToEndCpu = cpuSeconds(c0)
    if (summary.created.length !== TASKS || summary.failed.length) {
      throw new Error(`expected ${TASKS} skills, got ${summary.created.length} (failed ${summary.failed.length})`)
    }
    const t1 = performance.now()
    const again = await runReflection({ rootDir: root }, deps)
    const rerun = (performance.now() - t1) / 1000
    if (again.created.length) throw new Error('rerun created skills')

    const traces = (await deps.scan({ rootDir: root })).tasks
    const t2 = performance.now()
    let chars = 0
    for (let r = 0; r < 5; r++) for (const t of traces) chars += reflectOffline(t).body.length
    const pure = (performance.now() - t2) / 1000 / 5

    // the store's share: the same number of skills created straight through the store, 8 at once as the runner does
    const storeRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-store-'))
    const libs = await Promise.all(
      [0, 1, 2, 3].map(async (u) => {
        const dir = path.join(storeRoot, `u${u}`)
        fs.mkdirSync(dir)
        return openLibrary(dir)
      })
    )
    const body = 'x'.repeat(1600)
    const c3 = process.cpuUsage()
    const t3 = performance.now()
    let nextTask = 0
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (nextTask < TASKS) {
          const i = nextTask++
          await libs[i % 4]!.create({ skill_id: String(1_000_000 + i), title: `Script ${i} data writer`, body, task_directories: [`output_${i}`] })
        }
      })
    )
    const storeOnly = (performance.now() - t3) / 1000
    const storeOnlyCpu = cpuSeconds(c3)
    fs.rmSync(storeRoot, { recursive: true, force: true })

    const rate = TASKS / endToEnd
    const row = (what: string, value: string, goal: string, ok: string): string => `| ${what} | ${value} | ${goal} | ${ok} |`
    console.log('## Offline reflection (bench/reflect.bench.ts)\n')
    console.log(
      `${TASKS} generated AGIAgent tasks (4 users, 12 edit+run pairs each, one error), ${os.cpus().length} CPUs, load average ` +
        `${os.loadavg()[0]!.toFixed(1)}; CPU time is this process's (wall time grows with other jobs' load, CPU time much less).\n`
    )
    console.log('| measure | measured | goal / reference | |')
    console.log('|---|---|---|---|')
    console.log(row('end to end (scan + reflect + write skills + logs)', `${rate.toFixed(0)} tasks/s (${endToEnd.toFixed(2)} s wall, ${endToEndCpu.toFixed(2)} s CPU = ${(TASKS / endToEndCpu).toFixed(0)} tasks per CPU-second)`, `≥ ${GOAL} tasks/s`, rate >= GOAL ? '✅' : '❌'))
    console.log(row('rerun, all already reflected', `${(rerun * 1000).toFixed(0)} ms`, 'creates nothing', again.created.length === 0 ? '✅' : '❌'))
    console.log(row('store.create alone (same skills, 8 at once)', `${(TASKS / storeOnly).toFixed(0)} skills/s (${(storeOnlyCpu * 1000 / TASKS).toFixed(2)} ms CPU per skill)`, 'bounds the end-to-end rate', ''))
    console.log(row('pure offline reflector', `${(TASKS / pure).toFixed(0)} tasks/s`, '—', ''))
    console.log(row('average skill body', `${Math.round(chars / 5 / TASKS)} chars`, '—', ''))
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

void main().catch((err: unknown) => {
  console.error(err)
  process.exitCode = 1
})
