import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { generateCorpus } from '../../bench/cluster-corpus'

export interface FixtureSkill {
  id: string
  title: string
  body: string
  usage?: string
  quality?: number
  fetch?: number
  created?: string
  updated?: string
  lastUsed?: string | null
  pinned?: boolean
  dirs?: string[]
}

/** An AGIAgent skill file as upstream writes it. */
export function skillFileText(s: FixtureSkill): string {
  const created = s.created ?? '2026-01-17T09:59:21.686210'
  const lines = [
    '---',
    `skill_id: '${s.id}'`,
    `title: ${JSON.stringify(s.title)}`,
    `usage_conditions: ${JSON.stringify(s.usage ?? `when ${s.title}`)}`,
    `quality_index: ${s.quality ?? 0.5}`,
    `fetch_count: ${s.fetch ?? 0}`,
    "related_code: ''",
    'task_directories:',
    ...(s.dirs ?? [`output_${s.id}`]).map((d) => `- ${d}`),
    `created_at: '${created}'`,
    `updated_at: '${s.updated ?? created}'`,
    `last_used_at: ${s.lastUsed ? `'${s.lastUsed}'` : 'null'}`,
    "user_preferences: ''",
    ...(s.pinned !== undefined ? [`pinned: ${s.pinned}`] : []),
    '---',
    '',
    s.body
  ]
  return lines.join('\n')
}

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `skillbench-${prefix}-`))
}

/** A temp library holding the given skills as `skill_<id>.md`. */
export function makeLibrary(skills: FixtureSkill[]): string {
  const dir = tempDir('lib')
  for (const s of skills) fs.writeFileSync(path.join(dir, `skill_${s.id}.md`), skillFileText(s))
  return dir
}

/**
 * Every file under dir (relative path → content), `.skillbench` and upstream's `logs/` excluded: the library's visible
 * state (accept and undo append to `logs/skill_manager_YYYYMMDD.log`; undo restores the skills, not the log).
 */
export function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {}
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name
      if (r === '.skillbench' || r === 'logs') continue
      if (e.isDirectory()) walk(r)
      else out[r] = fs.readFileSync(path.join(dir, r), 'utf8')
    }
  }
  walk('')
  return out
}

export const SORTING = `# Sorting arrays in TypeScript

Use Array.prototype.sort with a comparator; numbers sort as strings otherwise.

## Pitfalls

The default comparator converts numbers to strings, so [10, 9, 1] sorts wrongly.
Sorting mutates the array in place; copy it first with slice when the input must stay.

## Stable sorting

Since ES2019 sort is stable: equal elements keep their order.
`
export const SORTING_COPY = `# Sorting arrays in TypeScript

Use Array.prototype.sort with a comparator; numbers sort as strings otherwise.

## Pitfalls

The default comparator converts numbers to strings, so [10, 9, 1] sorts wrongly.
Sorting mutates the array in place; copy it first with slice when the input must stay.

## Comparators for objects

Compare by key with (a, b) => a.key - b.key for numeric keys.
`
export const DEPLOY = `# Deploying with Docker compose

Build images with docker compose build, then start services with docker compose up -d.
Check container health with docker compose ps and read logs with docker compose logs -f service.
Pin image tags; never deploy latest to production.
`
export const DEPLOY_NEAR = `# Docker compose deployment checklist

Build the images with docker compose build and start services detached with docker compose up -d.
Read service logs with docker compose logs -f and check health with docker compose ps.
Roll back by redeploying the previous pinned image tag.
`
export const POETRY = `# Writing haiku

Five syllables, then seven, then five. Seasonal words give the poem its moment.
`

/**
 * Two near-duplicate pairs (sorting, deploying) and an old unrelated skill: the library most curation tests curate.
 * Ids are `${prefix}1` … `${prefix}5`.
 */
export function pairedSkills(prefix: string): FixtureSkill[] {
  return [
    { id: `${prefix}1`, title: 'Sorting arrays', body: SORTING, quality: 0.6, fetch: 2, created: '2026-11-01T00:00:00' },
    { id: `${prefix}2`, title: 'Sorting arrays in TS', body: SORTING_COPY, quality: 0.4, fetch: 1, created: '2026-11-02T00:00:00' },
    { id: `${prefix}3`, title: 'Deploy with compose', body: DEPLOY, created: '2026-11-01T00:00:00', fetch: 1 },
    { id: `${prefix}4`, title: 'Compose deployment checklist', body: DEPLOY_NEAR, created: '2026-11-01T00:00:00', fetch: 1 },
    { id: `${prefix}5`, title: 'Haiku', body: POETRY, created: '2026-01-01T00:00:00' }
  ]
}

/** A temp library of `n` skills from the bench's clustering corpus (near-duplicates in clusters, as curation meets them). */
export function makeCorpusLibrary(n: number, seed: number): string {
  const { docs } = generateCorpus(n, seed)
  return makeLibrary(
    docs.map((doc, i) => {
      const nl = doc.indexOf('\n')
      return { id: String(1_900_000_000 + i), title: doc.slice(2, nl), body: doc.slice(nl + 1), created: '2026-11-01T00:00:00' }
    })
  )
}
