/**
 * The usage index as the deploy budget's suggestions want it (uses and last use per skill id), gathered the way
 * `skillbench usage` does with its default sources — only when a report is over the budget and asks for it.
 */
import type { UsageLookup } from '../deploy/choose'
import { openLibrary } from '../store/library'
import type { CliIo } from './common'

export function usageIndexLookup(library: string, io: CliIo): UsageLookup {
  let cached: Promise<ReadonlyMap<string, { uses: number; last_used_at: string | null }>> | null = null
  return () => {
    cached ??= (async () => {
      const { collectUsage, defaultUsageSources, UsageScanner } = await import('../usage/service')
      const lib = await openLibrary(library)
      const skills = (await lib.list()).skills.filter((s) => !s.legacy)
      const scanner = new UsageScanner({ persist: true, env: io.env })
      const report = await collectUsage({ root: lib.root, skills, sources: defaultUsageSources(lib.root, io.env), signal: io.signal, scan: (s) => scanner.scan(s, io.signal) })
      await scanner.save()
      return new Map(report.skills.map((s) => [s.skill_id, { uses: s.uses, last_used_at: s.last_used_at }]))
    })()
    return cached
  }
}
