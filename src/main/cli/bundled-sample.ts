/**
 * The sample data bundled with Skillbench (the install's `resources/sample-data`, found as the prompts are: beside
 * `resources/prompts`, or `SKILLBENCH_RESOURCES_DIR`) is never written by a command: `npm start` opens a writable
 * copy of it in the settings folder (`<settings>/sample-data`, scripts/start.cjs), and a checkout stays clean after
 * any command run on the bundled one. A query of it answers without counting the use (query.ts); every command that
 * may write is refused before it runs when an argument that names where it reads or writes is in the sample, with
 * the path of the writable copy. Commands that only read check only the options they write to (`--out`, `--bin`).
 */
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { resolveSettingsDir } from '../config/settings-dir'
import { resourcesDir } from '../reflect/resources'
import { inBundledSample as inSample } from '../config/sample-data'
import { coded, type CodedText } from '../../shared/error-codes'
import { UsageError, type CommandWrites } from './common'
import type { OptionTypes } from './lang'
import { joinDashValues, optionValues, readArgs } from './arg-words'

/** The options of a command that only reads that name where it writes. */
const OUTPUT_OPTIONS = ['out', 'bin'] as const
/** The options that name a folder a command reads or writes (a library, a data root, a workspace, a target). */
const PATH_OPTIONS = ['library', 'root-dir', 'workspace', 'evolve-memory', 'to', ...OUTPUT_OPTIONS] as const

/** The resources folders whose `sample-data` is bundled: this install's, and SKILLBENCH_RESOURCES_DIR's when set. */
function resourcesDirs(env: NodeJS.ProcessEnv): string[] {
  return [resourcesDir(env), resourcesDir({})]
}

/** The real path of `p`: of its nearest existing folder, with the rest of it after (a library not made yet). */
function realish(p: string): string {
  const rest: string[] = []
  let dir = path.resolve(p)
  for (;;) {
    try {
      return path.join(fs.realpathSync(dir), ...rest.reverse())
    } catch {
      const parent = path.dirname(dir)
      if (parent === dir) return path.resolve(p)
      rest.push(path.basename(dir))
      dir = parent
    }
  }
}

export interface InSample {
  /** The path as given, resolved. */
  path: string
  /** The bundled sample folder it is in. */
  sample: string
  /** The same place in the writable copy (`<settings>/sample-data/…`). */
  copy: string
}

/** Where `p` is in the bundled sample data, or undefined when it is not in it. */
export function inBundledSample(p: string, env: NodeJS.ProcessEnv): InSample | undefined {
  const where = inSample(realish(p), resourcesDirs(env), resolveSettingsDir(env))
  return where && { path: path.resolve(p), ...where }
}

/** The line a query of the bundled sample says on stderr: answered, not counted. */
export function notCountedNotice(where: InSample): CodedText {
  return coded('cli.bundled_sample_not_counted', { path: where.path, copy: where.copy })
}

/**
 * Whether a command run with `argv` may write where its arguments point, as its entry says (registry.ts). The argv
 * is read leniently with the command's options: an unknown option or a missing value is the command's to say.
 */
export function commandWrites(entry: { writes: CommandWrites }, options: OptionTypes, argv: readonly string[]): boolean {
  if (typeof entry.writes === 'boolean') return entry.writes
  // up to the `--` that ends the options, as the command reads them (arg-words readArgs; a value that starts with a dash joined)
  const end = readArgs(argv, options).findIndex((w) => w.role === 'end')
  const { values, positionals } = parseArgs({ args: joinDashValues(end === -1 ? argv : argv.slice(0, end), options), options, strict: false, allowPositionals: true })
  return entry.writes({ values, positionals })
}

/**
 * Refuses (bad usage, exit 2) a command that may write when one of its path arguments is in the bundled sample
 * data, naming the writable copy; a command that only reads, when its output goes there. argv is read by the command's
 * option table (`table`: arg-words readArgs), as the command reads it. `--to` takes a target
 * (`claude`, `agents:PATH`, a folder): its path part is checked.
 */
export function refuseBundledSample(writes: boolean, argv: readonly string[], table: OptionTypes, cwd: string, env: NodeJS.ProcessEnv): void {
  const options = writes ? PATH_OPTIONS : OUTPUT_OPTIONS
  for (const name of options) {
    // the values argv gives it, read by the command's own table (an option's value or a word after -- is none)
    for (const value of optionValues(argv, table, name)) {
      const target = name === 'to' ? value.replace(/^[a-z-]+:/, '') : value
      if (!target || (name === 'to' && !/[\\/.]/.test(target))) continue
      const where = inBundledSample(path.resolve(cwd, target), env)
      if (where) throw new UsageError(coded('cli.bundled_sample_read_only', { path: where.path, copy: where.copy, sample: where.sample }))
    }
  }
}
