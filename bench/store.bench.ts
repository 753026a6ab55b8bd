/**
 * Store and query_skill on a generated library of 10,000 skills (mixed English / Chinese; 9,500 AGIAgent files
 * plus 500 SKILL.md folders, some in dot-folders). Prints a Markdown section: figure, goal.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { openLibrary } from '../src/main/store/library'
import { serializeSkillFile } from '../src/main/store/skill-file'
import { createSkillTools } from '../src/main/tools/skill-tools'
import { rng } from './cluster-corpus'
import { generatedSkillData } from './skill-data'

const N_AGI = 9_500
const N_MD = 500

const EN = [
  'parse', 'csv', 'file', 'sort', 'column', 'pandas', 'http', 'request', 'retry', 'timeout', 'json', 'schema', 'validate', 'docker',
  'image', 'build', 'cache', 'layer', 'react', 'component', 'state', 'hook', 'test', 'unit', 'mock', 'fixture', 'database', 'index',
  'query', 'migration', 'git', 'branch', 'merge', 'rebase', 'conflict', 'deploy', 'kubernetes', 'pod', 'log', 'metric', 'alert',
  'python', 'typescript', 'rust', 'async', 'thread', 'lock', 'queue', 'worker', 'pdf', 'table', 'extract', 'scrape', 'html', 'selector',
  'calculator', 'divide', 'zero', 'error', 'handling', 'config', 'environment', 'secret', 'token', 'auth', 'oauth', 'session', 'cookie'
]
const ZH = [
  '计算器', '加减乘除', '除零保护', '单元测试', '网页', '爬虫', '数据', '清洗', '表格', '排序', '笑话', '问候', '文件', '保存', '读取',
  '用户', '需求', '中断', '任务', '完成', '错误', '处理', '日志', '分析', '图片', '压缩', '接口', '调用', '超时', '重试', '数据库',
  '索引', '迁移', '部署', '容器', '配置', '环境', '密钥', '登录', '会话', '报告', '生成', '模板', '翻译', '摘要', '游戏', '规则'
]

// Deterministic pseudo-random numbers (the clustering corpus's mulberry32), so every run measures the same library.
const rand = rng(42)
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!
const words = (pool: readonly string[], n: number, sep: string): string => Array.from({ length: n }, () => pick(pool)).join(sep)

function text(chinese: boolean, n: number): string {
  return chinese ? words(ZH, n, '') + '。' : words(EN, n, ' ') + '.'
}

function generate(dir: string): void {
  for (let i = 0; i < N_AGI; i++) {
    const zh = i % 2 === 0
    const title = zh ? `${words(ZH, 4, '')}：${words(ZH, 3, '')}` : `${words(EN, 5, ' ')}`
    const body = Array.from({ length: 12 }, () => text(zh, 14)).join('\n\n') + '\n'
    const data = generatedSkillData(i, title, text(zh, 10), 0.5, i % 7)
    fs.writeFileSync(path.join(dir, `skill_${i}_${title.slice(0, 12).replace(/[\s：]/g, '_')}.md`), serializeSkillFile(data, body))
  }
  for (let i = 0; i < N_MD; i++) {
    const folder = path.join(dir, i % 3 === 0 ? '.curated' : 'skills', `cat-${i % 10}`, `skill-${i}`)
    fs.mkdirSync(folder, { recursive: true })
    const body = `# skill-${i}\n\n` + Array.from({ length: 20 }, () => text(false, 16)).join('\n\n') + '\n'
    fs.writeFileSync(path.join(folder, 'SKILL.md'), serializeSkillFile({ name: `skill-${i}`, description: `Use when ${text(false, 12)}` }, body))
  }
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

const ms = (x: number): string => `${x.toFixed(x < 10 ? 2 : 0)} ms`

/** Wall time and this process's CPU time of one async step (CPU time is what a loaded machine does not inflate). */
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const c = process.cpuUsage()
  const t = performance.now()
  const value = await fn()
  const wall = performance.now() - t
  const d = process.cpuUsage(c)
  return { value, wall, cpu: (d.user + d.system) / 1000 }
}

const both = (x: { wall: number; cpu: number }): string => `${ms(x.wall)} (cpu ${ms(x.cpu)})`

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sb-bench-store-'))
  try {
    generate(dir)
    const queries = [
      ...Array.from({ length: 100 }, () => words(EN, 4, ' ')),
      ...Array.from({ length: 100 }, () => words(ZH, 3, '')),
      '帮我写一个Python计算器，要有除零保护',
      'retry an http request with a timeout'
    ]

    // The generator's garbage is not the store's: collect it first (bench/run.ts passes --expose-gc), so the
    // first open is measured as in a fresh process.
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    const open = await timed(() => openLibrary(dir))
    const lib = open.value
    const relist = await timed(() => lib.list())
    const list = relist.value
    gc?.()
    const secondOpen = await timed(() => openLibrary(dir))

    const tools = createSkillTools(lib, { snapshotMaxAgeMs: 60_000 })
    const first = await timed(() => tools.query_skill('warm up: build the index', { touch: false }))

    const noTouch: number[] = []
    const noTouchAll = await timed(async () => {
      for (const q of queries) {
        const s = performance.now()
        await tools.query_skill(q, { touch: false })
        noTouch.push(performance.now() - s)
      }
    })
    const touch: number[] = []
    const touchAll = await timed(async () => {
      for (const q of queries.slice(0, 60)) {
        const s = performance.now()
        await tools.query_skill(q)
        touch.push(performance.now() - s)
      }
    })
    // create() must not depend on the library's size: 200 skills into the 10k library, 8 at once (as reflection does)
    const CREATES = 200
    let nextCreate = 0
    const creates = await timed(async () => {
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (nextCreate < CREATES) {
            const i = nextCreate++
            await lib.create({ title: `bench create ${i}`, body: text(i % 2 === 0, 40) + '\n', task_directories: [`output_bench_${i}`] })
          }
        })
      )
    })
    const load = os.loadavg()[0]!.toFixed(1)

    const lines = [
      '## Skill store and query_skill (10,000 generated skills)',
      '',
      `${list.skills.length} skills (${N_AGI} AGIAgent files + ${N_MD} SKILL.md folders), ${list.errors.length} errors; ` +
        `${os.cpus().length} CPU(s), load average ${load} while measuring (wall times grow with load; CPU times much less).`,
      '',
      '| measure | result | goal |',
      '|---|---|---|',
      `| openLibrary: find, read, parse all (first time in process, cold JIT) | ${both(open)} | < 1 s |`,
      `| list() again (stat only, files unchanged) | ${both(relist)} | — |`,
      `| a second openLibrary on the same folder (read + parse all, warm JIT) | ${both(secondOpen)} | < 1 s |`,
      `| first query (builds the TF-IDF index of 10k skills) | ${both(first)} | — |`,
      `| query_skill --no-touch p50 / p95 (${noTouch.length} queries, EN + ZH) | ${ms(percentile(noTouch, 50))} / ${ms(percentile(noTouch, 95))} (cpu ${ms(noTouchAll.cpu / noTouch.length)} per query) | p50 < 5 ms |`,
      `| query_skill with touch (3 atomic writes + fsync each) p50 / p95 (${touch.length} queries) | ${ms(percentile(touch, 50))} / ${ms(percentile(touch, 95))} (cpu ${ms(touchAll.cpu / touch.length)} per query) | — |`,
      `| create() into the 10k library, 8 at once (${CREATES} skills; fsync per file, folder fsyncs shared) | ${(CREATES / (creates.wall / 1000)).toFixed(0)} skills/s (cpu ${ms(creates.cpu / CREATES)} per skill) | independent of library size |`,
      ''
    ]
    process.stdout.write(lines.join('\n') + '\n')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

void main()
