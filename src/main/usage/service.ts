/**
 * Gathering a library's usage evidence: scan every configured source (AGIAgent data roots, Claude Code, Codex
 * and Synapse session folders) — incrementally, through the scan caches — read the library's recorded query
 * hits, and build the report. Reading only: nothing in a data root, session folder or library is written.
 */
import path from 'node:path'
import type { ScanResult, Skill, TaskTrace, UsageReport } from '../../shared/types'
import type { LogParse } from '../scan/agiagent-parser'
import { ScanCache, cacheFileFor } from '../scan/cache'
import { scanRoot } from '../scan/scan-root'
import { detectSessionDirs, scanSessions, type SessionSource } from '../scan/sessions'
import { readUseHistory } from '../store/ledger'
import { readTeamUses } from '../store/team-ledger-files'
import { resolveCopies } from './copies'
import { buildUsageReport, type ScannedTask } from './report'
import { codedLine, type CodedLine } from '../../shared/error-codes'

/** One folder to read uses from. */
export interface UsageSourceSpec {
  kind: 'agiagent' | SessionSource
  dir: string
}

export interface CollectUsageOptions {
  /** The library's folder (real path). */
  root: string
  /** Its active skills. */
  skills: readonly Skill[]
  sources: readonly UsageSourceSpec[]
  /** Only uses and tasks from this time on (ms). */
  since?: number
  now?: Date
  /** How a source is scanned (the app passes its own, cached scans); default: `UsageScanner` without persistence. */
  scan?: (source: UsageSourceSpec) => Promise<ScanResult>
  signal?: AbortSignal
  onProgress?: (line: CodedLine) => void
}

/** Scans sources with one incremental cache per folder (kept in memory, optionally persisted per folder). */
export class UsageScanner {
  private readonly roots = new Map<string, ScanCache<LogParse>>()
  private readonly sessions = new Map<string, ScanCache<TaskTrace[]>>()

  /** `persist`: load and save each folder's cache in the user's cache folder (the CLI: a new process each run). */
  constructor(private readonly opts: { persist?: boolean; env?: NodeJS.ProcessEnv; maxEnhanceContextChars?: number } = {}) {}

  private async cacheOf<T>(map: Map<string, ScanCache<T>>, key: string): Promise<ScanCache<T>> {
    let cache = map.get(key)
    if (!cache) {
      cache = new ScanCache<T>(this.opts.persist ? cacheFileFor(key, this.opts.env) : undefined)
      await cache.load()
      map.set(key, cache)
    }
    return cache
  }

  async scan(source: UsageSourceSpec, signal?: AbortSignal): Promise<ScanResult> {
    if (source.kind === 'agiagent') {
      return scanRoot({ rootDir: source.dir, cache: await this.cacheOf(this.roots, source.dir), signal })
    }
    // session parses live in their own cache file (another shape than a root's parsed logs)
    const cache = await this.cacheOf(this.sessions, `${source.dir}#${source.kind}-sessions`)
    return scanSessions({ source: source.kind, dir: source.dir, env: this.opts.env, maxEnhanceContextChars: this.opts.maxEnhanceContextChars, cache, signal })
  }

  /** Writes the persisted caches that changed; a cache that cannot be written only costs speed next time. */
  async save(): Promise<string[]> {
    const problems: string[] = []
    for (const cache of [...this.roots.values(), ...this.sessions.values()]) {
      await cache.save().catch((err: unknown) => problems.push(`scan cache not saved: ${(err as Error).message}`))
    }
    return problems
  }
}

/** Scans the sources, reads the ledger history and builds the report. A source that cannot be read is a problem, not a failure. */
export async function collectUsage(opts: CollectUsageOptions): Promise<UsageReport> {
  const scanner = opts.scan ?? ((s: UsageSourceSpec) => new UsageScanner().scan(s, opts.signal))
  const tasks: ScannedTask[] = []
  const sources: UsageReport['sources'] = []
  const problems: string[] = []
  for (const source of opts.sources) {
    opts.signal?.throwIfAborted()
    opts.onProgress?.(codedLine('curate.reading_logs', { agent: source.kind, dir: source.dir }))
    try {
      const result = await scanner(source)
      for (const trace of result.tasks) tasks.push({ trace, origin: source.dir })
      // what the scan passed over is said in the report, never dropped
      for (const s of result.skipped) problems.push(`${s.path}: ${s.reason}`)
      sources.push({ kind: source.kind, dir: source.dir, tasks: result.tasks.length })
    } catch (err) {
      if (opts.signal?.aborted) throw err
      problems.push(`${source.dir}: ${(err as Error).message}`)
    }
  }
  const history = await readUseHistory(opts.root)
  problems.push(...history.problems)
  // a library shared through git: the other machines' uses count too (their fetch_count already does)
  const team = await readTeamUses(opts.root)
  problems.push(...team.problems)
  history.uses.push(...team.uses)
  sources.push({ kind: 'ledger', dir: opts.root, tasks: history.uses.length })
  const copies = await resolveCopies(
    tasks.flatMap((t) => t.trace.skillRefs ?? []),
    opts.root
  )
  return buildUsageReport({ skills: opts.skills, root: opts.root, tasks, ledger: history.uses, since: opts.since, now: opts.now ?? new Date(), sources, problems, copies })
}

/** `<root>/<user>/general/experience` → `<root>`; null for a library outside an AGIAgent data root. */
export function dataRootOfLibrary(libraryDir: string): string | null {
  const parts = path.resolve(libraryDir).split(path.sep)
  const n = parts.length
  if (n >= 4 && parts[n - 1] === 'experience' && parts[n - 2] === 'general') return parts.slice(0, n - 3).join(path.sep) || path.sep
  return null
}

/** The sources used when none are named: the library's own data root, and the agents' session folders found at their usual places. */
export function defaultUsageSources(libraryDir: string, env: NodeJS.ProcessEnv = process.env): UsageSourceSpec[] {
  const out: UsageSourceSpec[] = []
  const root = dataRootOfLibrary(libraryDir)
  if (root) out.push({ kind: 'agiagent', dir: root })
  for (const d of detectSessionDirs(env)) out.push({ kind: d.source, dir: d.dir })
  return out
}

/**
 * `--since`: a date (`2026-11-01`, local midnight), a date and time (ISO 8601), or a number of days back (`30d`).
 * Returns ms since epoch, or null when the text is none of these.
 */
export function parseSince(text: string, now: Date = new Date()): number | null {
  const t = text.trim()
  const days = /^(\d{1,5})d$/.exec(t)
  if (days) return now.getTime() - Number(days[1]) * 86_400_000
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t)
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])]
    const local = new Date(y, m - 1, d)
    return local.getFullYear() === y && local.getMonth() === m - 1 && local.getDate() === d ? local.getTime() : null
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(t)) {
    const ms = Date.parse(t)
    return Number.isFinite(ms) ? ms : null
  }
  return null
}
