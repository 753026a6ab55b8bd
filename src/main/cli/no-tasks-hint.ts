import path from 'node:path'
import { codedFieldsOf } from '../../shared/api-error'
import { coded, type CodedText } from '../../shared/error-codes'
import { ScanError } from '../scan/discover'
import { diagnoseRoot, discoverUsers } from '../scan/root-problem'
import { isFolder } from '../store/is-folder'
import { UsageError } from './common'

/**
 * Why a scan or a reflection of an AGIAgent data root found no task, and what to type instead: a user that is not
 * there (a typo), a --task that names none, or a folder that is not a data root at all (a skill library, one task
 * folder, a folder of agent sessions) with the layout Skillbench reads. Said on stderr; the output stays as it was.
 */
export async function noTasksHint(root: string, filter: { user?: string; tasks?: readonly string[] } = {}): Promise<CodedText> {
  if (filter.user && filter.user !== 'default') {
    if (!(await isFolder(path.join(root, filter.user)))) return coded('task.unknown_user', { user: filter.user, root })
    if (!filter.tasks?.length) return coded('reflect.user_no_tasks', { user: filter.user, root })
  }
  if (filter.tasks?.length) return coded('reflect.no_task_matched', { tasks: filter.tasks.join(', '), root })
  return coded('scan.no_tasks_hint', { root })
}

/**
 * `skillbench scan` or `reflect` with no --root-dir (nor --config) where the default root is not there: "data root not
 * found: ./data" read as if the person had named it. Said as the default it is, with what to give instead; the same
 * error class (its --json shape as before). Any other error, or a root that was given, as it is.
 */
export function withDefaultRootHint(err: unknown, rootGiven: boolean): unknown {
  const fields = codedFieldsOf(err)
  if (rootGiven || fields?.messageCode !== 'scan.root_not_found') return err
  // a root config.txt named is said with its file (cli/config-root.ts): no default
  if (typeof fields.params?.root !== 'string') return err
  return new ScanError(coded('scan.default_root_not_found', fields.params))
}

/**
 * `skillbench reflect --root-dir` naming a skill library instead of the agents' data root (it found no task and said
 * nothing wrong, exit 0): bad usage (exit 2) that says what the folder looks like, judged as the app's Workspaces
 * screen judges a root it offers "Open as a skill library" for (scan/root-problem.ts). Any other root passes.
 */
export async function refuseLibraryRoot(root: string): Promise<void> {
  if ((await diagnoseRoot(root, await discoverUsers(root))) === 'library') throw new UsageError(coded('cli.root_is_library', { root }))
}
