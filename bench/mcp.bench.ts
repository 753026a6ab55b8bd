/**
 * MCP server and memory figures:
 * - `skillbench mcp` over stdio on a generated 1,000-skill library: spawn → initialize answered, then the
 *   round trip of query_skill (which writes fetch_count to the 3 hits, as upstream) and rate_skill, measured
 *   with the SDK client (goal: interactive, median < 50 ms per call; the in-process top-3 TF-IDF query on 1k
 *   skills is ~0.4 ms per reference/measurements.md);
 * - offline consolidation of a year of daily logs (365 days × ~20 KB) and its idempotent rerun.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { consolidateDailyLogs } from '../src/main/memory/memory-files'

const SKILLS = Number(process.env.MCP_BENCH_SKILLS ?? 1000)
const CALLS = Number(process.env.MCP_BENCH_CALLS ?? 100)
const DAYS = 365
const PROJECT = path.resolve(__dirname, '..')

function writeLibrary(dir: string): void {
  fs.mkdirSync(dir, { recursive: true })
  const words = ['parse', 'deploy', 'calculator', 'scrape', 'retry', 'docker', 'pytest', 'refactor', 'pdf', 'csv', 'api', 'cache', '数据', '清洗', '报告', '爬虫']
  for (let i = 0; i < SKILLS; i++) {
    const id = String(1_700_000_000 + i)
    const w = (k: number): string => words[(i * 7 + k * 3) % words.length]!
    const text = [
      '---',
      `skill_id: '${id}'`,
      `title: ${w(0)} ${w(1)} ${w(2)} task ${i}`,
      `usage_conditions: Use when you need to ${w(1)} with ${w(3)}.`,
      'quality_index: 0.5',
      'fetch_count: 0',
      "related_code: ''",
      'task_directories:',
      `- output_${id}`,
      "created_at: '2026-01-02T03:04:05'",
      "updated_at: '2026-01-02T03:04:05'",
      'last_used_at: null',
      "user_preferences: ''",
      '---',
      '',
      `# ${w(0)} ${w(2)}\n\nSteps: ${w(1)} the inputs, ${w(3)} the results, check with ${w(4)}. `.repeat(6)
    ].join('\n')
    fs.writeFileSync(path.join(dir, `skill_${id}.md`), text)
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]!
}
function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]!
}

async function mcpFigures(dir: string): Promise<string[]> {
  const t0 = performance.now()
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(PROJECT, 'bin', 'skillbench.cjs'), 'mcp', '--library', dir], cwd: PROJECT, stderr: 'ignore' })
  const client = new Client({ name: 'bench', version: '1' })
  await client.connect(transport)
  const startMs = performance.now() - t0
  const queries = ['deploy docker api', '数据 清洗 报告', 'pytest retry cache', 'scrape pdf csv', 'refactor calculator']
  const q: number[] = []
  const r: number[] = []
  const first = performance.now()
  await client.callTool({ name: 'query_skill', arguments: { query: 'warm up the index' } })
  const firstQueryMs = performance.now() - first
  for (let i = 0; i < CALLS; i++) {
    const a = performance.now()
    await client.callTool({ name: 'query_skill', arguments: { query: queries[i % queries.length]! } })
    q.push(performance.now() - a)
    const b = performance.now()
    const res = (await client.callTool({ name: 'rate_skill', arguments: { skill_id: String(1_700_000_000 + (i % SKILLS)), rating: 0.8 } })) as { isError?: boolean }
    r.push(performance.now() - b)
    if (res.isError) throw new Error('rate_skill failed in the bench')
  }
  await client.close()
  return [
    `| spawn → initialized (compiled CLI where built) | ${startMs.toFixed(0)} ms | — |`,
    `| first query_skill (builds the index) | ${firstQueryMs.toFixed(1)} ms | — |`,
    `| query_skill round trip, median / p95 (${CALLS} calls, 3 files written each) | ${median(q).toFixed(1)} / ${p95(q).toFixed(1)} ms | < 50 ms median (in-process query ≈ 0.4 ms) |`,
    `| rate_skill round trip, median / p95 | ${median(r).toFixed(1)} / ${p95(r).toFixed(1)} ms | < 50 ms median |`
  ]
}

async function consolidationFigures(ws: string): Promise<string[]> {
  const logs = path.join(ws, 'memory', 'logs')
  fs.mkdirSync(logs, { recursive: true })
  const start = Date.UTC(2025, 0, 1)
  let bytes = 0
  for (let d = 0; d < DAYS; d++) {
    const day = new Date(start + d * 86_400_000).toISOString().slice(0, 10)
    const lines: string[] = [`# ${day}`]
    for (let k = 0; k < 120; k++) {
      lines.push(
        k % 9 === 0
          ? `- ${String(k % 24).padStart(2, '0')}:10 error: tool run_terminal_cmd failed with exit code ${k} while running tests for module_${k % 7}`
          : `- ${String(k % 24).padStart(2, '0')}:${String(k % 60).padStart(2, '0')} user asked about report ${d}-${k}; 已生成 第 ${k} 部分的数据分析结果，包含 ${k * 3} 行`
      )
    }
    const text = lines.join('\n') + '\n'
    bytes += Buffer.byteLength(text)
    fs.writeFileSync(path.join(logs, `${day}.md`), text)
  }
  const now = new Date(2026, 0, 5)
  const t0 = performance.now()
  const first = await consolidateDailyLogs(ws, { now })
  const firstMs = performance.now() - t0
  const t1 = performance.now()
  const again = await consolidateDailyLogs(ws, { now })
  const againMs = performance.now() - t1
  if (first.consolidated.length !== DAYS || again.consolidated.length !== 0) {
    throw new Error(`consolidation: expected ${DAYS} then 0 days, got ${first.consolidated.length} then ${again.consolidated.length}`)
  }
  return [
    `| offline consolidation, ${DAYS} days (${(bytes / 1e6).toFixed(1)} MB of logs) | ${firstMs.toFixed(0)} ms (${((DAYS / firstMs) * 1000).toFixed(0)} days/s) | — (LLM path: one request per day) |`,
    `| rerun (every day already consolidated, nothing written) | ${againMs.toFixed(0)} ms | idempotent |`
  ]
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-mcp-'))
  try {
    const lib = path.join(tmp, 'lib')
    writeLibrary(lib)
    const rows = [...(await mcpFigures(lib)), ...(await consolidationFigures(path.join(tmp, 'ws')))]
    process.stdout.write(
      [`## MCP server and memory (${SKILLS} skills)`, '', '| measure | measured | goal / reference |', '|---|---|---|', ...rows, ''].join('\n') + '\n'
    )
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`)
  process.exitCode = 1
})
