/**
 * The usage index as the deploy budget's suggestions want it (uses and last use per skill id), gathered the way
 * `skillbench usage` does with its default sources — only when a report is over the budget and asks for it.
 */
import type { UsageLookup } from '../deploy/choose'
import { openLibraryServices } from '../services/library-services'
import type { CliIo } from './common'

export function usageIndexLookup(library: string, io: CliIo): UsageLookup {
  let cached: Promise<ReadonlyMap<string, { uses: number; last_used_at: string | null }>> | null = null
  return () => {
    cached ??= (async () => {
      const { report } = await (await openLibraryServices(library, { env: io.env })).usage({ signal: io.signal })
      return new Map(report.skills.map((s) => [s.skill_id, { uses: s.uses, last_used_at: s.last_used_at }]))
    })()
    return cached
  }
}
