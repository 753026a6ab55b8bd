/** Curation settings and their defaults (docs/CURATION.md explains each choice). */
export interface CurationSettings {
  /** Merge pairs whose cosine similarity is strictly above this. */
  mergeThreshold: number
  /** Largest merge group; every member of a group is above the threshold with every other one. */
  maxMergeGroup: number
  /** DBSCAN eps on cosine distance (1 − similarity) for consolidation. */
  eps: number
  /** DBSCAN min_samples (counts the point itself). */
  minSamples: number
  /** Clusters larger than this are re-clustered with a tighter eps (steps of 0.1) until they fit. */
  maxClusterSize: number
  /** Cleanup: never-fetched skills created more than this many days ago. */
  cleanupDays: number
  /** Protect skills that look edited by hand (pinned ones are always protected). */
  protectEdited: boolean
  /** Leave out lines shared word for word by many skills (template boilerplate) before comparing. */
  stripBoilerplate: boolean
  /**
   * Judge candidates by content (content-judge.ts): a pair is proposed only when the subjects the skills announce
   * agree, with their family's template words left out. Off: every pair above the thresholds is a candidate.
   */
  judgeContent: boolean
  /** Shared terms listed as evidence. */
  evidenceTerms: number
  /** Characters of each skill shown to the model. */
  llmSkillChars: number
}

export const DEFAULT_CURATION_SETTINGS: Readonly<CurationSettings> = Object.freeze({
  mergeThreshold: 0.7,
  maxMergeGroup: 5,
  eps: 0.5,
  minSamples: 2,
  maxClusterSize: 5,
  cleanupDays: 30,
  protectEdited: true,
  stripBoilerplate: true,
  judgeContent: true,
  evidenceTerms: 8,
  llmSkillChars: 1500
})

/** Defaults overlaid with the given values; out-of-range values are refused with a clear message. */
export function resolveSettings(partial: Partial<CurationSettings> = {}): CurationSettings {
  const s: CurationSettings = { ...DEFAULT_CURATION_SETTINGS, ...partial }
  const check = (ok: boolean, what: string): void => {
    if (!ok) throw new RangeError(`curation setting ${what}`)
  }
  check(s.mergeThreshold > 0 && s.mergeThreshold < 1, `mergeThreshold must be in (0, 1), got ${s.mergeThreshold}`)
  check(Number.isInteger(s.maxMergeGroup) && s.maxMergeGroup >= 2, `maxMergeGroup must be an integer ≥ 2, got ${s.maxMergeGroup}`)
  check(s.eps > 0 && s.eps < 1, `eps must be in (0, 1), got ${s.eps}`)
  check(Number.isInteger(s.minSamples) && s.minSamples >= 2, `minSamples must be an integer ≥ 2, got ${s.minSamples}`)
  check(Number.isInteger(s.maxClusterSize) && s.maxClusterSize >= 2, `maxClusterSize must be an integer ≥ 2, got ${s.maxClusterSize}`)
  check(s.cleanupDays >= 0, `cleanupDays must be ≥ 0, got ${s.cleanupDays}`)
  return s
}
