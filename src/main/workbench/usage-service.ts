/**
 * The usage evidence of a library in the app (issue 14): every configured source — the data roots and the
 * session folders (detected and added) — scanned incrementally, plus the library's recorded query hits. The report
 * is the library services' (`services/library-services`, as `skillbench usage` has it); what is the app's own is
 * the sources and how they are scanned: one scanner for every library, the data roots through the workbench's scans.
 * Concurrent requests for one library share one computation.
 */
import type { ApiHandlers, LibraryInfo } from '../../shared/api'
import type { ScanResult, UsageReport } from '../../shared/types'
import { detectSessionDirs } from '../scan/sessions'
import type { UsageRequest } from '../services/library-services'
import { UsageScanner, type UsageSourceSpec } from '../usage/service'
import type { SettingsStore } from './settings-store'
import { mergeSources } from './session-sources'
import type { CodedLine } from '../../shared/error-codes'

export interface UsageServiceDeps {
  settings: SettingsStore
  env: NodeJS.ProcessEnv
  requireLibrary(library: string): Promise<LibraryInfo>
  /** The usage report of the library folder (the core's, through its services). */
  report(dir: string, request: UsageRequest): Promise<UsageReport>
  /** The data roots the workbench knows. */
  roots(): string[]
  /** The workbench's own (cached) scan of a data root. */
  scanRoot(root: string): Promise<ScanResult>
}

export interface UsageService {
  handlers: Pick<ApiHandlers, 'usage.get'>
  /** The report of a listed library (an empty one for a library folder that does not exist yet). */
  reportFor(library: string, signal?: AbortSignal, onProgress?: (line: CodedLine) => void): Promise<UsageReport>
}

export function createUsageService(deps: UsageServiceDeps): UsageService {
  const running = new Map<string, Promise<UsageReport>>()
  let scanner: UsageScanner | null = null
  let scannerCut = -1

  /** Every configured source, data roots first. */
  function sources(): UsageSourceSpec[] {
    const sessions = mergeSources(detectSessionDirs(deps.env), deps.settings.sessionSources)
    return [...deps.roots().map((dir) => ({ kind: 'agiagent' as const, dir })), ...sessions.map((s) => ({ kind: s.source, dir: s.dir }))]
  }

  async function compute(library: string, signal?: AbortSignal, onProgress?: (line: CodedLine) => void): Promise<UsageReport> {
    const info = await deps.requireLibrary(library)
    const cut = deps.settings.settings.maxEnhanceContextChars
    if (!scanner || scannerCut !== cut) {
      scanner = new UsageScanner({ env: deps.env, maxEnhanceContextChars: cut })
      scannerCut = cut
    }
    const own = scanner
    return deps.report(info.path, {
      // a library folder not made yet: no skills of its own, the sources' uses all the same
      ...(info.exists ? {} : { skills: [] }),
      sources: sources(),
      signal,
      ...(onProgress ? { onProgress } : {}),
      scan: (s) => (s.kind === 'agiagent' ? deps.scanRoot(s.dir) : own.scan(s, signal))
    })
  }

  function reportFor(library: string, signal?: AbortSignal, onProgress?: (line: CodedLine) => void): Promise<UsageReport> {
    if (signal || onProgress) return compute(library, signal, onProgress)
    const current = running.get(library)
    if (current) return current
    const next = compute(library).finally(() => running.delete(library))
    running.set(library, next)
    return next
  }

  return {
    reportFor,
    handlers: {
      'usage.get': async ({ library }) => reportFor(library)
    }
  }
}
