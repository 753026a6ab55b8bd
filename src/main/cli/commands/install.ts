import os from 'node:os'
import { findingLines } from '../../audit/gate'
import { installFromSource, type SkippedSkill } from '../../sources/install'
import type { MessageCode } from '../../../shared/error-codes'
import { installLocked, LockMismatchError } from '../../sources/install-locked'
import { parseCommandArgs, printJson, resolveLibraryDir, UsageError, LIBRARY_OPTIONS, type CliCommand, type CliIo } from '../common'
import { coded } from '../../../shared/error-codes'
import { say, sayReason } from '../lang'

/** Skips that mean the skill is there already (exit 0 when nothing else happened): decided by code, not by the words. */
const ALREADY_THERE: ReadonlySet<MessageCode> = new Set(['install.already_installed', 'install.locked_already'])

/** A lock entry left out because it is retired where the lock comes from. */
function isRetired(s: SkippedSkill): boolean {
  return s.messageCode === 'install.locked_retired'
}

const OPTIONS = {
  ...LIBRARY_OPTIONS,
  ref: { type: 'string' },
  path: { type: 'string' },
  skill: { type: 'string', multiple: true },
  locked: { type: 'boolean', default: false },
  'allow-risk': { type: 'string', multiple: true }
} as const

export const command: CliCommand = {
  name: 'install',
  options: OPTIONS,
  usage: 'skillbench install SOURCE --library DIR [--ref REF] [--path SUBDIR] [--skill NAME]... [--allow-risk NAME]... [--json]\n       skillbench install --locked --library DIR [--json]   (exactly what the library\'s skills.lock says)\n' +
    '  --locked exits 1 when a skill is not as locked: a hash or commit that differs, a skill held back by the audit, or\n' +
    '  one changed here since install (its files differ from the locked commit\'s: named, audited, never overwritten;\n' +
    '  --json lists it in mismatched and in changed with the files and new findings). 0 when all is as locked.',
  async run(argv, io) {
    const { values, positionals } = parseCommandArgs(argv, OPTIONS)
    if (values.locked) {
      if (positionals.length > 0 || values.ref || values.path || values.skill) throw new UsageError(coded('cli.locked_only_library'))
      return runLocked(resolveLibraryDir(values, io.cwd), values.json === true, io)
    }
    if (positionals.length !== 1) throw new UsageError(coded('cli.give_install_source'))
    const library = resolveLibraryDir(values, io.cwd)
    const report = await installFromSource({
      library,
      source: positionals[0]!,
      ref: values.ref,
      path: values.path,
      skills: values.skill,
      cwd: io.cwd,
      env: io.env,
      signal: io.signal,
      onProgress: (line) => io.stderr(`${say(io, line)}\n`),
      allowRisk: values['allow-risk'],
      allowedBy: allowedBy(io.env)
    })
    const held = report.held ?? []
    if (values.json) printJson(io, report)
    else {
      for (const s of report.installed) io.stdout(`installed ${s.name}  → ${s.path}  (${s.source.repo}@${s.source.commit.slice(0, 12)}${s.source.path ? ` ${s.source.path}` : ''})\n`)
      for (const s of report.skipped) io.stdout(`skipped   ${s.name}: ${s.reason}\n`)
      for (const h of held) io.stdout(`held      ${h.name}: the audit found ${h.findings.filter((f) => f.severity === 'high').length} high-risk item(s); not installed (${h.hint})\n${findingLines(h.findings)}`)
      io.stdout(`${report.installed.length} installed, ${report.skipped.length} skipped${held.length > 0 ? `, ${held.length} held back by the audit` : ''}\n`)
    }
    const onlyAlreadyThere = report.skipped.every((s) => s.messageCode !== undefined && ALREADY_THERE.has(s.messageCode))
    return held.length === 0 && (report.installed.length > 0 || onlyAlreadyThere) ? 0 : 1
  }
}

async function runLocked(library: string, json: boolean, io: CliIo): Promise<number> {
  try {
    const report = await installLocked({ library, cwd: io.cwd, env: io.env, signal: io.signal, onProgress: (line) => io.stderr(`${say(io, line)}\n`) })
    const held = report.held ?? []
    if (json) printJson(io, report)
    else {
      for (const s of report.installed) io.stdout(`installed ${s.name}  → ${s.path}  (${s.source.repo}@${s.source.commit.slice(0, 12)}${s.source.path ? ` ${s.source.path}` : ''})\n`)
      for (const s of report.skipped) io.stdout(`${isRetired(s) ? 'retired ' : 'in place'}  ${s.name}: ${s.reason}\n`)
      for (const s of report.mismatched) {
        io.stdout(`NOT AS LOCKED ${s.name}: ${s.reason}\n`)
        // a skill changed here: the new lines the audit names in its changed files
        const changed = report.changed.find((c) => c.name === s.name)
        if (changed && changed.findings.length > 0) io.stdout(findingLines(changed.findings))
      }
      for (const h of held) io.stdout(`held      ${h.name}: the audit found ${h.findings.filter((f) => f.severity === 'high').length} high-risk item(s); not installed (${h.hint})\n${findingLines(h.findings)}`)
      const retired = report.skipped.filter(isRetired).length
      io.stdout(`${report.installed.length} installed, ${report.skipped.length - retired} already as locked, ${report.mismatched.length} not as locked${report.changed.length ? ` (${report.changed.length} changed here since install)` : ''}${retired ? `, ${retired} retired` : ''}${held.length ? `, ${held.length} held back by the audit` : ''}\n`)
    }
    return report.mismatched.length > 0 || held.length > 0 ? 1 : 0
  } catch (err) {
    if (!(err instanceof LockMismatchError)) throw err
    if (json) printJson(io, { installed: [], skipped: [], mismatched: err.mismatched, changed: [] })
    for (const m of err.mismatched) io.stderr(`skillbench install: ${m.name}: ${sayReason(io, m)}\n`)
    io.stderr(`skillbench install: ${say(io, coded('install.nothing_installed'))}\n`)
    return 1
  }
}

/** Who allowed a risky skill in: the user name of this process (recorded in the provenance). */
function allowedBy(env: NodeJS.ProcessEnv): string {
  let user = env.USER ?? env.USERNAME ?? ''
  try {
    user = os.userInfo().username || user
  } catch {
    // no passwd entry (containers): the environment's name
  }
  return `${user || 'unknown'}@${os.hostname()} (skillbench install --allow-risk)`
}
