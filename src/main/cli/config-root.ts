/**
 * A data root that config.txt names (`gui_default_data_directory`, read when no --root-dir is given) is checked as a
 * --root-dir is, with the same codes: a folder that is not there or not a folder (`scan.root_not_found`,
 * `scan.root_not_folder`, exit 1) and, for a command that writes, the bundled sample data
 * (`cli.bundled_sample_read_only`, exit 2, naming the writable copy). The root is said as it came
 * (`cli.root_from_config`: the path, then the config.txt file that set it), so the person knows which file to change.
 */
import { promises as fsp } from 'node:fs'
import { coded, refOf } from '../../shared/error-codes'
import { ScanError } from '../scan/discover'
import { inBundledSample } from './bundled-sample'
import { UsageError } from './common'

/** Throws when the root config.txt named (`file`) cannot be used; a root from --root-dir or the default passes. */
export async function checkConfigRoot(found: { root: string; file?: string }, opts: { writes: boolean; env: NodeJS.ProcessEnv }): Promise<void> {
  if (found.file === undefined) return
  const root = refOf(coded('cli.root_from_config', { root: found.root, file: found.file }))
  const sample = opts.writes ? inBundledSample(found.root, opts.env) : undefined
  if (sample) throw new UsageError(coded('cli.bundled_sample_read_only', { path: root, copy: sample.copy, sample: sample.sample }))
  const stat = await fsp.stat(found.root).catch(() => undefined)
  if (!stat) throw new ScanError(coded('scan.root_not_found', { root }))
  if (!stat.isDirectory()) throw new ScanError(coded('scan.root_not_folder', { root }))
}
