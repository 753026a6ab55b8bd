/**
 * Scan throughput: a generated root of 2,000 tasks / ~1 GB of AGIAgent logs in a temp dir (deleted after).
 * Reports cold scan MB/s (goal ≥ 300 MB/s) and the rescan of the unchanged root (goal < 300 ms); then the usage
 * index over the same root (issue 14: one task in eight queries a skill and reads a skill file).
 * `SCAN_BENCH_BEFORE=/path/to/other/checkout` also scans the same root with that checkout's scanner (e.g. main,
 * exported with `git archive main src | tar -x -C DIR`), alternating, for a before/after in one run.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ScanCache } from '../src/main/scan/cache'
import { scanRoot } from '../src/main/scan/scan-root'
import type { LogParse } from '../src/main/scan/agiagent-parser'
import { openLibrary } from '../src/main/store/library'
import { collectUsage, UsageScanner } from '../src/main/usage/service'
import { writeDataRoot } from './agiagent-logs'

const TASKS = Number(process.env.SCAN_BENCH_TASKS ?? 2000)
const TARGET_BYTES = Number(process.env.SCAN_BENCH_BYTES ?? 1024 * 1024 * 1024)

function cpuMs(u: NodeJS.CpuUsage): number {
  return (u.user + u.system) / 1e3
}

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits)
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-scan-bench-'))
  try {
    const genStart = Date.now()
    const total = writeDataRoot(root, TASKS, Math.floor(TARGET_BYTES / TASKS))
    const genMs = Date.now() - genStart

    const cache = new ScanCache<LogParse>()
    const cpu0 = process.cpuUsage()
    const t0 = process.hrtime.bigint()
    const cold = await scanRoot({ rootDir: root, cache })
    const coldMs = Number(process.hrtime.bigint() - t0) / 1e6
    const cpu = process.cpuUsage(cpu0)
    const coldCpuS = (cpu.user + cpu.system) / 1e6
    const cpu1 = process.cpuUsage()
    const t1 = process.hrtime.bigint()
    const warm = await scanRoot({ rootDir: root, cache })
    const warmMs = Number(process.hrtime.bigint() - t1) / 1e6
    const warmCpu = process.cpuUsage(cpu1)
    const warmCpuMs = (warmCpu.user + warmCpu.system) / 1e3

    // Persisted cache: what a new process does (load the cache file, then rescan).
    const cacheFile = path.join(root, '..', `${path.basename(root)}-cache.bin`)
    const persisted = new ScanCache<LogParse>(cacheFile)
    await scanRoot({ rootDir: root, cache: persisted })
    await persisted.save()
    const reloaded = new ScanCache<LogParse>(cacheFile)
    const cpu2 = process.cpuUsage()
    const t2 = process.hrtime.bigint()
    await reloaded.load()
    const loadMs = Number(process.hrtime.bigint() - t2) / 1e6
    const loadCpuMs = cpuMs(process.cpuUsage(cpu2))
    await scanRoot({ rootDir: root, cache: reloaded })
    const persistedMs = Number(process.hrtime.bigint() - t2) / 1e6
    const persistedCpuMs = cpuMs(process.cpuUsage(cpu2))
    const cacheBytes = fs.statSync(cacheFile).size
    fs.rmSync(cacheFile, { force: true })

    // The usage index over the same root: a library of 50 skills, a fresh scanner (cold: the scan included), then
    // the same scanner again (unchanged root: stat calls and the report).
    const libDir = path.join(root, 'alice', 'general', 'experience')
    fs.mkdirSync(libDir, { recursive: true })
    for (let k = 0; k < 50; k++) {
      const id = String(1760000000 + k)
      fs.writeFileSync(
        path.join(libDir, `skill_CSV report ${k}.md`),
        `---\nskill_id: '${id}'\ntitle: CSV report ${k}\nusage_conditions: ''\nquality_index: 0.5\nfetch_count: 0\nrelated_code: ''\ntask_directories: []\ncreated_at: '2026-01-01T00:00:00'\nupdated_at: '2026-01-01T00:00:00'\nlast_used_at: null\nuser_preferences: ''\n---\n\nSteps ${k}.\n`
      )
    }
    const lib = await openLibrary(libDir)
    const skills = (await lib.list()).skills
    const scanner = new UsageScanner()
    const usageRun = async (): Promise<{ ms: number; cpuMs: number; uses: number }> => {
      const c = process.cpuUsage()
      const t = process.hrtime.bigint()
      const report = await collectUsage({ root: lib.root, skills, sources: [{ kind: 'agiagent', dir: root }], scan: (src) => scanner.scan(src) })
      return { ms: Number(process.hrtime.bigint() - t) / 1e6, cpuMs: cpuMs(process.cpuUsage(c)), uses: report.skills.reduce((n, u) => n + u.uses, 0) }
    }
    const usageCold = await usageRun()
    const usageWarm = await usageRun()

    // Before / after in the same run: the other checkout's scanner and ours, alternating, each with a fresh cache.
    const compare: string[][] = []
    if (process.env.SCAN_BENCH_BEFORE) {
      // scan/scan-root.ts + scan/cache.ts, or the barrel scan/index.ts of a checkout from before it was removed
      const scanDir = path.join(path.resolve(process.env.SCAN_BENCH_BEFORE), 'src', 'main', 'scan')
      const barrel = path.join(scanDir, 'index.ts')
      const before = (
        fs.existsSync(barrel)
          ? await import(barrel)
          : { ...(await import(path.join(scanDir, 'scan-root.ts'))), ...(await import(path.join(scanDir, 'cache.ts'))) }
      ) as { scanRoot: typeof scanRoot; ScanCache: typeof ScanCache }
      const one = async (label: string, scan: typeof scanRoot, Cache: typeof ScanCache): Promise<string[]> => {
        const cacheOf = new Cache<LogParse>()
        const c = process.cpuUsage()
        const t = process.hrtime.bigint()
        await scan({ rootDir: root, cache: cacheOf })
        const coldS = Number(process.hrtime.bigint() - t) / 1e9
        const coldCpuS = cpuMs(process.cpuUsage(c)) / 1000
        const t2 = process.hrtime.bigint()
        await scan({ rootDir: root, cache: cacheOf })
        const warm = Number(process.hrtime.bigint() - t2) / 1e6
        return [label, `${fmt(mb0 / coldS, 0)} MB/s (${fmt(coldS, 2)} s)`, `${fmt(mb0 / coldCpuS, 0)} MB/CPU-s`, `${fmt(warm, 0)} ms`, `load ${os.loadavg()[0]!.toFixed(1)}`]
      }
      const mb0 = total / (1024 * 1024)
      for (let round = 0; round < 2; round++) {
        compare.push(await one('before', before.scanRoot, before.ScanCache))
        compare.push(await one('after', scanRoot, ScanCache))
      }
    }

    const mb = total / (1024 * 1024)
    const calls = cold.tasks.reduce((n, t) => n + t.toolCalls.length, 0)
    const ok = warm.tasks.length === TASKS && cold.tasks.every((t) => t.status === 'completed')
    const rows = [
      ['Generated root', `${TASKS} tasks, ${fmt(mb, 0)} MB of logs (${fmt(genMs / 1000)} s to write)`, '2,000 tasks / ~1 GB'],
      ['Cold scan (wall clock)', `${fmt(coldMs / 1000, 2)} s = **${fmt(mb / (coldMs / 1000), 0)} MB/s**, ${calls.toLocaleString('en-US')} tool calls`, '≥ 300 MB/s'],
      ['Cold scan (per CPU-second, robust to a busy machine)', `${fmt(coldCpuS, 2)} CPU-s = ${fmt(mb / coldCpuS, 0)} MB/CPU-s`, '—'],
      ['Rescan, unchanged root (in-process cache)', `**${fmt(warmMs, 0)} ms** wall, ${fmt(warmCpuMs, 0)} ms CPU (cache hits ${cache.hits}, no log opened)`, '< 300 ms'],
      [
        'Rescan from the persisted cache file (as a new process: load + rescan)',
        `${fmt(persistedMs, 0)} ms wall, ${fmt(persistedCpuMs, 0)} ms CPU (load alone ${fmt(loadMs, 0)} ms wall, ${fmt(loadCpuMs, 0)} ms CPU; cache file ${fmt(cacheBytes / 1048576)} MB)`,
        '—'
      ],
      ['Results consistent', ok ? 'yes' : '**NO**', 'every task parsed, completed'],
      ['Usage index, cold (a new scanner: scan + report, 50 skills)', `${fmt(usageCold.ms / 1000, 2)} s wall, ${fmt(usageCold.cpuMs / 1000, 2)} CPU-s; ${usageCold.uses} uses found`, '≥ 300 MB/s (scan budget)'],
      ['Usage index, unchanged root (same scanner)', `**${fmt(usageWarm.ms, 0)} ms** wall, ${fmt(usageWarm.cpuMs, 0)} ms CPU; ${usageWarm.uses} uses found`, '< 300 ms']
    ]
    const out = [
      '## Scan throughput (AGIAgent logs)',
      '',
      `Node ${process.version}, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0]!.toFixed(1)} at the end; the generated files are in the page cache (freshly written), so "cold" means no parse cache.`,
      '',
      '| Measure | Result | Goal |',
      '|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
      ...(compare.length
        ? ['Before / after on the same root, alternating (each with a fresh in-process cache):', '', '| scanner | cold wall | cold per CPU-s | rescan | load |', '|---|---|---|---|---|', ...compare.map((r) => `| ${r.join(' | ')} |`), '']
        : [])
    ]
    process.stdout.write(out.join('\n') + '\n')
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
}

void main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`)
  process.exitCode = 1
})
