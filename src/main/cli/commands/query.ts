import type { QueryResult } from '../../../shared/types'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, UsageError, type CliCommand } from '../common'
import { fitWidth, formatTable, openLibraryFromFlags } from '../../tools/cli-support'
import { createSkillTools } from '../../tools/skill-tools'

const OPTIONS = { ...LIBRARY_OPTIONS, top: { type: 'string' }, 'no-touch': { type: 'boolean', default: false } } as const

/** A readable ranking: one row per skill, then its usage conditions. */
export function formatQueryTable(result: QueryResult): string {
  if (result.skills_count === 0) return result.message
  const rows = result.skills.map((s, i) => [String(i + 1), s.similarity_score.toFixed(3), s.quality_index.toFixed(2), s.skill_id, fitWidth(s.title, 60)])
  const lines = [`Found ${result.skills_count} relevant skill(s):`, '', formatTable(['#', 'SCORE', 'QUALITY', 'ID', 'TITLE'], rows), '']
  result.skills.forEach((s, i) => lines.push(`${i + 1}. ${s.path}`, `   Use when: ${fitWidth(s.usage_conditions || '-', 100)}`))
  return lines.join('\n')
}

export const command: CliCommand = {
  name: 'query',
  usage: 'skillbench query "TEXT" (--library DIR | --root-dir DIR --user NAME) [--top N] [--no-touch] [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    const text = positionals.join(' ').trim()
    if (!text) throw new UsageError('missing query text')
    let top = 3
    if (values.top !== undefined) {
      top = Number(values.top)
      if (!Number.isInteger(top) || top < 1 || top > 50) throw new UsageError('--top must be a whole number from 1 to 50')
    }
    // Ranked from the persistent search index (only changed files are read); the library itself is not listed.
    const { openSearchIndex } = await import('../../search/open')
    const late: { index?: Awaited<ReturnType<typeof openSearchIndex>>['index'] } = {}
    const lib = await openLibraryFromFlags(values, io, { lazy: true, locate: (id) => late.index?.pathOf(id) })
    const index = (late.index = (await openSearchIndex(lib.root, { env: io.env })).index)
    const result = await createSkillTools(lib, { via: 'cli', search: async () => index }).query_skill(text, { top, touch: !values['no-touch'] })
    if (values.json) printJson(io, result)
    else if (result.status === 'success') io.stdout(formatQueryTable(result) + '\n')
    if (result.status !== 'success') {
      io.stderr(`${result.message}\n`)
      return 1
    }
    return 0
  }
}
