import type { Skill, SkillList } from '../../../shared/types'
import { LIBRARY_OPTIONS, parseCommandArgs, printJson, UsageError, type CliCommand } from '../common'
import { fitWidth, formatTable, openLibraryFromFlags } from '../../tools/cli-support'

const OPTIONS = { ...LIBRARY_OPTIONS, legacy: { type: 'boolean', default: false } } as const

/** The `--json` shape of one listed skill (everything but the body). */
export function publicSkill(s: Skill): Record<string, unknown> {
  const { body, ...rest } = s
  return { ...rest, body_chars: body.length }
}

/** A readable table of the skills, then the files that could not be read. */
export function formatSkillTable(list: SkillList): string {
  const rows = list.skills.map((s) => [
    s.skill_id,
    s.quality_index.toFixed(2),
    String(s.fetch_count),
    s.last_used_at ? s.last_used_at.slice(0, 10) : '-',
    s.format === 'agiagent' ? 'agi' : 'md',
    fitWidth(s.legacy ? `[legacy] ${s.title}` : s.title, 60)
  ])
  const lines = [`${list.skills.length} skill(s), ${list.errors.length} unreadable file(s)`]
  if (rows.length) lines.push('', formatTable(['ID', 'QUALITY', 'FETCHES', 'LAST USED', 'FMT', 'TITLE'], rows))
  if (list.errors.length) {
    lines.push('', 'Not loaded:')
    for (const e of list.errors) lines.push(`  ${e.path}: ${e.reason}`)
  }
  return lines.join('\n')
}

export const command: CliCommand = {
  name: 'list',
  usage: 'skillbench list (--library DIR | --root-dir DIR --user NAME) [--legacy] [--json]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`)
    const lib = await openLibraryFromFlags(values, io)
    const list = await lib.list({ includeLegacy: values.legacy })
    if (values.json) printJson(io, { skills: list.skills.map(publicSkill), errors: list.errors })
    else io.stdout(formatSkillTable(list) + '\n')
    return 0
  }
}
