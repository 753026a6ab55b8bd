/**
 * Whether two builds of the CLI printed the same answer (before-after.bench.ts): pure comparisons of the `--json`
 * outputs of one command run by each build, tolerant of what a later build may add (new fields) and of what it
 * words differently (a proposal's reason), each difference said in one short line.
 */

/** Field paths (array indices written `[]`) only one side has, and the paths where the fields both have differ. */
export interface FieldComparison {
  onlyBefore: string[]
  onlyAfter: string[]
  differing: string[]
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Compares the fields both values have, recursively; reports each field path only one side has once. */
export function compareFields(before: unknown, after: unknown): FieldComparison {
  const onlyBefore = new Set<string>()
  const onlyAfter = new Set<string>()
  const differing: string[] = []
  const walk = (a: unknown, b: unknown, at: string, shape: string): void => {
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        const inA = key in a
        const inB = key in b
        if (inA && inB) walk(a[key], b[key], `${at}.${key}`, `${shape}.${key}`)
        else (inA ? onlyBefore : onlyAfter).add(`${shape}.${key}`.slice(1))
      }
    } else if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) differing.push(`${at.slice(1) || '(top)'}: ${a.length} → ${b.length} items`)
      for (let i = 0; i < Math.min(a.length, b.length); i++) walk(a[i], b[i], `${at}[${i}]`, `${shape}[]`)
    } else if (JSON.stringify(a) !== JSON.stringify(b)) {
      differing.push(at.slice(1) || '(top)')
    }
  }
  walk(before, after, '', '')
  return { onlyBefore: [...onlyBefore], onlyAfter: [...onlyAfter], differing }
}

/** One line for a field comparison: "same" or what differs (the first few paths), and the fields one side adds. */
export function sayFields(c: FieldComparison, what: string): string {
  const parts = [c.differing.length === 0 ? `same ${what} on the fields both print` : `**${what} differ** at ${c.differing.length} place(s): ${c.differing.slice(0, 3).join(', ')}${c.differing.length > 3 ? ', …' : ''}`]
  if (c.onlyAfter.length) parts.push(`after adds ${c.onlyAfter.join(', ')}`)
  if (c.onlyBefore.length) parts.push(`before only ${c.onlyBefore.join(', ')}`)
  return parts.join('; ')
}

interface Proposal {
  kind: string
  members?: Array<{ skill_id: string }>
  reason?: string
}

/** A proposal by what it proposes: its kind and its members' ids (not its id, score or wording). */
const proposalKey = (p: Proposal): string => `${p.kind} ${(p.members ?? []).map((m) => m.skill_id).sort().join('+')}`

function countKinds(keys: string[]): string {
  const counts = new Map<string, number>()
  for (const k of keys) counts.set(k.split(' ')[0]!, (counts.get(k.split(' ')[0]!) ?? 0) + 1)
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ') || 'none'
}

/** `curate --json` of both builds: the same proposals (kind and members), and how many reasons are worded anew. */
export function compareCuratePlans(beforeJson: string, afterJson: string): string {
  const before = (JSON.parse(beforeJson) as { proposals: Proposal[] }).proposals
  const after = (JSON.parse(afterJson) as { proposals: Proposal[] }).proposals
  const a = new Map(before.map((p) => [proposalKey(p), p]))
  const b = new Map(after.map((p) => [proposalKey(p), p]))
  const onlyBefore = [...a.keys()].filter((k) => !b.has(k))
  const onlyAfter = [...b.keys()].filter((k) => !a.has(k))
  const both = [...a.keys()].filter((k) => b.has(k))
  const reworded = both.filter((k) => a.get(k)!.reason !== b.get(k)!.reason).length
  const wording = reworded ? ` (${reworded} reason(s) worded differently)` : ''
  if (onlyBefore.length === 0 && onlyAfter.length === 0) return `same ${both.length} proposals (${countKinds(both)})${wording}`
  const list = (keys: string[]): string => `${countKinds(keys)}: ${keys.slice(0, 2).join('; ')}${keys.length > 2 ? '; …' : ''}`
  return (
    `**proposals differ**: ${both.length} in both (${countKinds(both)})${wording}` +
    (onlyBefore.length ? `; only before ${list(onlyBefore)}` : '') +
    (onlyAfter.length ? `; only after ${list(onlyAfter)}` : '')
  )
}

/** `query --json` of both builds: the same hits in the same order with the same scores, then the other fields. */
export function compareQueryHits(beforeJson: string, afterJson: string): string {
  type Hit = { skill_id: string; similarity_score?: number }
  const hits = (json: string): Hit[] => (JSON.parse(json) as { skills: Hit[] }).skills
  const a = hits(beforeJson)
  const b = hits(afterJson)
  const say = (h: Hit[]): string => h.map((x) => `${x.skill_id} ${x.similarity_score ?? ''}`.trim()).join(', ')
  if (say(a) !== say(b)) return `**hits differ**: before ${say(a) || 'none'}; after ${say(b) || 'none'}`
  return `same ${a.length} hits; ${sayFields(compareFields(JSON.parse(beforeJson), JSON.parse(afterJson)), 'answers')}`
}

/**
 * `list --json` or `scan --json` of both builds: the items (skills, tasks) matched by their path whatever the order,
 * then compared field by field.
 */
export function compareItems(beforeJson: string, afterJson: string, items: string): string {
  const byPath = (json: string): unknown => {
    const all = JSON.parse(json) as Record<string, unknown>
    const list = (all[items] ?? []) as Array<{ path?: string }>
    return { ...all, [items]: [...list].sort((x, y) => String(x.path).localeCompare(String(y.path))) }
  }
  const a = byPath(beforeJson) as Record<string, unknown[]>
  return `${a[items]!.length} ${items}: ${sayFields(compareFields(a, byPath(afterJson)), items)}`
}
