/**
 * Scripts as commands (seed 001 §4.5.8): every `scripts/*` file of a SKILL.md skill becomes an executable
 * `skill:<skill>:<tool>` in a bin folder — a small POSIX sh wrapper that runs the script with its interpreter
 * and answers `-h/--help` with the script's own documentation.
 *
 * Regenerated when scripts change (each run, or kept current by `--watch`, commands-watch.ts): each wrapper embeds the script's sha256, and a manifest
 * (`.skillbench-commands.json`) lists the wrappers we made. Wrappers whose script is gone are moved aside to
 * `.skillbench-stale/` (never deleted); files we did not make are never touched.
 *
 * Windows caveat: ':' is not allowed in NTFS file names and sh wrappers do not run there; generation refuses
 * on win32 with a clear message (Linux and macOS are fine).
 */
import { coded, type CodedText, type MessageCode, type MessageParams } from '../../shared/error-codes'
import { codedReason } from '../../shared/coded-reason'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { moveNoClobber, writeFileAtomic } from '../store/atomic'
import { decodeSkillBytes } from '../store/skill-file'
import { readFileAtMost } from '../store/read-at-most'
import { FormatError } from './model'
import { extractScriptDoc, interpreterFor } from './script-doc'
import { loadSkillTree, type FormatLoadError } from './tree'

export const MANIFEST_FILE = '.skillbench-commands.json'
export const STALE_DIR = '.skillbench-stale'
const MARKER = '# skillbench-generated command'
const MAX_SCRIPT_BYTES = 1024 * 1024

export interface GeneratedCommand {
  command: string
  skill: string
  tool: string
  /** Absolute path of the script. */
  script: string
}

export interface CommandsReport {
  bin: string
  written: GeneratedCommand[]
  unchanged: GeneratedCommand[]
  /** Stale wrappers moved to `.skillbench-stale/`. */
  movedAside: { command: string; to: string }[]
  skipped: SkippedScript[]
}

/** A script (or skill file) made no command: why in words (`reason`, what scripts read) and by code beside them. */
export interface SkippedScript {
  path: string
  reason: string
  messageCode: MessageCode
  params: MessageParams
}

function skippedScript(where: string, why: CodedText): SkippedScript {
  return { path: where, ...codedReason(why) }
}

/** A skill file that did not load: its words, by the code the loader gave (every one carries one). */
function unloadable(e: FormatLoadError): SkippedScript {
  return { path: e.path, reason: e.reason, messageCode: e.messageCode, params: e.params }
}

/**
 * What the walk passed over (links, never followed; FIFOs, sockets, devices, never opened) that might have made
 * commands: a SKILL.md, or an entry outside any skill folder (a linked skill folder). A link among a skill's own
 * files (its notes, its data) makes no command either way and is left out.
 */
function skippedSkillEntries(skills: readonly { path: string }[], errors: readonly FormatLoadError[], skipped: readonly FormatLoadError[]): FormatLoadError[] {
  const skillDirs = new Set([...skills, ...errors].map((s) => path.posix.dirname(s.path)))
  return skipped.filter((e) => path.posix.basename(e.path) === 'SKILL.md' || !skillDirs.has(path.posix.dirname(e.path)))
}

interface Manifest {
  version: 1
  commands: Record<string, { script: string; sha256: string }>
}

/** Single-quotes a string for sh. */
export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`
}

/** Tool name of a script: its file name without the extension, limited to safe characters. */
export function toolName(fileName: string): string {
  return fileName.replace(/\.[^.]+$/, '').replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^[.]+/, '') || 'tool'
}

/** The wrapper script text (pure; deterministic for the same inputs). */
export function renderWrapper(cmd: { command: string; script: string; interpreter: string[]; doc: string; sha256: string }): string {
  let delimiter = 'SKILLBENCH_DOC'
  while (cmd.doc.split('\n').includes(delimiter)) delimiter += '_'
  const run = [...cmd.interpreter.map(shQuote), shQuote(cmd.script)].join(' ')
  const help = cmd.doc.trim() !== ''
    ? `  -h|--help)\n    cat <<'${delimiter}'\n${cmd.doc}\n${delimiter}\n    exit 0 ;;\n`
    : '' // No documentation of its own: the script answers --help itself.
  return [
    '#!/bin/sh',
    `${MARKER}: ${cmd.command}`,
    `# script: ${cmd.script.replace(/\n/g, ' ')}`,
    `# script-sha256: ${cmd.sha256}`,
    'case "$1" in',
    help + '  *) ;;',
    'esac',
    `exec ${run} "$@"`,
    ''
  ].join('\n')
}

async function readManifest(bin: string): Promise<Manifest> {
  try {
    const data = JSON.parse(await fs.promises.readFile(path.join(bin, MANIFEST_FILE), 'utf8')) as Manifest
    if (data && data.version === 1 && typeof data.commands === 'object' && data.commands !== null) return data
  } catch {
    // Missing or unreadable: start a new one.
  }
  return { version: 1, commands: {} }
}

async function isOurs(abs: string): Promise<boolean> {
  try {
    const st = await fs.promises.lstat(abs)
    if (!st.isFile() || st.size > 64 * 1024) return false
    return (await fs.promises.readFile(abs, 'utf8')).split('\n')[1]?.startsWith(MARKER) ?? false
  } catch {
    return false
  }
}

/** Generates / refreshes the `skill:<skill>:<tool>` commands of every SKILL.md skill under `libraryDir` into `binDir`. */
export async function generateCommands(libraryDir: string, binDir: string, platform: NodeJS.Platform = process.platform): Promise<CommandsReport> {
  if (platform === 'win32') {
    throw new FormatError(coded('format.windows_commands'))
  }
  await fs.promises.mkdir(binDir, { recursive: true })
  const bin = await fs.promises.realpath(binDir)
  const report: CommandsReport = { bin, written: [], unchanged: [], movedAside: [], skipped: [] }
  const manifest = await readManifest(bin)
  const next: Manifest = { version: 1, commands: {} }
  const { skills, errors, skipped } = await loadSkillTree(await fs.promises.realpath(libraryDir), 'skill-md')
  for (const e of errors) report.skipped.push(unloadable(e))
  for (const e of skippedSkillEntries(skills, errors, skipped)) report.skipped.push(unloadable(e))
  for (const loaded of skills) {
    const skillDir = path.dirname(loaded.abs)
    const skillName = path.basename(skillDir)
    const scripts = (loaded.skill.resources ?? []).filter((r) => /^scripts\/[^/]+$/.test(r)).sort()
    for (const rel of scripts) {
      const abs = path.join(skillDir, rel)
      const fileName = path.basename(rel)
      const where = `${path.posix.dirname(loaded.path)}/${rel}`
      // opened, then checked and read through the descriptor: the limit holds for what is read, a link is not
      // followed, a FIFO never blocks
      const read = await readFileAtMost(abs, MAX_SCRIPT_BYTES)
      if (read.kind !== 'ok') {
        report.skipped.push(skippedScript(where, coded('commands.not_regular', { mb: MAX_SCRIPT_BYTES / (1024 * 1024) })))
        continue
      }
      const bytes = read.bytes
      const decoded = decodeSkillBytes(bytes)
      const text = decoded.ok ? decoded.text : ''
      const interpreter = decoded.ok ? interpreterFor(fileName, text) : null
      if (!interpreter) {
        report.skipped.push(skippedScript(where, coded('commands.unknown_script')))
        continue
      }
      const command = `skill:${skillName}:${toolName(fileName)}`
      if (next.commands[command]) {
        report.skipped.push(skippedScript(where, coded('commands.taken', { command })))
        continue
      }
      const sha256 = createHash('sha256').update(bytes).digest('hex')
      const wrapper = renderWrapper({ command, script: abs, interpreter, doc: extractScriptDoc(fileName, text), sha256 })
      const target = path.join(bin, command)
      const gen: GeneratedCommand = { command, skill: skillName, tool: toolName(fileName), script: abs }
      let current: string | null
      try {
        const cst = await fs.promises.lstat(target)
        current = cst.isFile() ? await fs.promises.readFile(target, 'utf8') : ''
      } catch {
        current = null
      }
      if (current !== null && !(await isOurs(target))) {
        report.skipped.push(skippedScript(where, coded('commands.not_ours', { command, bin })))
        continue
      }
      next.commands[command] = { script: abs, sha256 }
      if (current === wrapper) {
        report.unchanged.push(gen)
        continue
      }
      await writeFileAtomic(target, wrapper)
      await fs.promises.chmod(target, 0o755)
      report.written.push(gen)
    }
  }
  // Wrappers we made before whose script is gone: move aside, never delete.
  for (const command of Object.keys(manifest.commands)) {
    if (next.commands[command] || !/^skill:[^/\\]+:[^/\\]+$/.test(command)) continue
    const abs = path.join(bin, command)
    if (!(await isOurs(abs))) continue
    const to = path.join(bin, STALE_DIR, `${command}.${Date.now()}`)
    await moveNoClobber(abs, to)
    report.movedAside.push({ command, to: path.relative(bin, to) })
  }
  // Rewritten only when it changes: a watch of a folder holding the bin folder is not woken by a no-op.
  const manifestText = JSON.stringify(next, null, 2) + '\n'
  const manifestFile = path.join(bin, MANIFEST_FILE)
  if ((await fs.promises.readFile(manifestFile, 'utf8').catch(() => null)) !== manifestText) await writeFileAtomic(manifestFile, manifestText)
  return report
}
