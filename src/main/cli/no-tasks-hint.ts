import { promises as fsp } from 'node:fs'
import path from 'node:path'
import { coded, type CodedText } from '../../shared/error-codes'

async function isDir(p: string): Promise<boolean> {
  return (await fsp.stat(p).catch(() => null))?.isDirectory() ?? false
}

/**
 * Why a scan or a reflection of an AGIAgent data root found no task, and what to type instead: a user that is not
 * there (a typo), a --task that names none, or a folder that is not a data root at all (a skill library, one task
 * folder, a folder of agent sessions) with the layout Skillbench reads. Said on stderr; the output stays as it was.
 */
export async function noTasksHint(root: string, filter: { user?: string; tasks?: readonly string[] } = {}): Promise<CodedText> {
  if (filter.user && filter.user !== 'default') {
    if (!(await isDir(path.join(root, filter.user)))) return coded('task.unknown_user', { user: filter.user, root })
    if (!filter.tasks?.length) return coded('reflect.user_no_tasks', { user: filter.user, root })
  }
  if (filter.tasks?.length) return coded('reflect.no_task_matched', { tasks: filter.tasks.join(', '), root })
  return coded('scan.no_tasks_hint', { root })
}
