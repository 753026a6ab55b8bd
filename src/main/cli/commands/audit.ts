import { parseCommandArgs, printJson, UsageError, type CliCommand } from '../common'
import { coded } from '../../../shared/error-codes'
import { sayReason } from '../lang'

const LEVELS = ['high', 'medium', 'low'] as const

const OPTIONS = { json: { type: 'boolean', default: false }, 'fail-on': { type: 'string', default: 'high' }, 'no-cache': { type: 'boolean', default: false } } as const

export const command: CliCommand = {
  name: 'audit',
  options: OPTIONS,
  usage: 'skillbench audit PATH... [--json] [--fail-on high|medium|low] [--no-cache]',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (positionals.length === 0) throw new UsageError(coded('cli.give_paths'))
    const failOn = values['fail-on'] as (typeof LEVELS)[number]
    if (!LEVELS.includes(failOn)) throw new UsageError(coded('cli.fail_on_level', { value: JSON.stringify(values['fail-on']) }))
    const path = await import('node:path')
    const [{ auditPaths }, { atLeast, countBySeverity }, { defaultCacheDir }] = await Promise.all([import('../../audit/read-paths'), import('../../audit/types'), import('../../cache-dir')])
    const started = Date.now()
    // Skills whose files did not change since the last audit are answered from the cache folder (never the library).
    const result = await auditPaths(positionals.map((p) => path.resolve(io.cwd, p)), values['no-cache'] ? {} : { cacheDir: defaultCacheDir(io.env) })
    for (const u of result.unreadable) io.stderr(`skillbench audit: ${u.path}: ${sayReason(io, u)}\n`)
    const counts = countBySeverity(result.findings)
    if (values.json) {
      printJson(io, { findings: result.findings, skills: result.skills, files: result.files, counts, unreadable: result.unreadable, cached: result.cached })
    } else {
      for (const f of result.findings) {
        const where = `${path.relative(io.cwd, f.path) || f.path}${f.line > 0 ? `:${f.line}` : ''}`
        io.stdout(`${f.severity.toUpperCase().padEnd(6)} ${where}  [${f.skill}] ${f.rule}: ${f.message}\n`)
        if (f.excerpt) io.stdout(`       │ ${f.excerpt}\n`)
      }
      io.stdout(`${result.skills} skill(s), ${result.files} file(s) in ${Date.now() - started} ms${result.cached ? ` (${result.cached} unchanged since the last audit)` : ''}: ${counts.high} high, ${counts.medium} medium, ${counts.low} low\n`)
    }
    // a path that could not be read was not audited: a gate must not pass on it (a typo in a CI path), findings or not
    if (result.unreadable.length > 0) return 2
    return result.findings.some((f) => atLeast(f, failOn)) ? 1 : 0
  }
}
