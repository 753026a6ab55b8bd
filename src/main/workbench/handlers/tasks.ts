/** The tasks of a data root: listed with the skills reflected from each, and their logs read and searched. */
import { promises as fsp } from 'node:fs'
import type { ApiHandlers, TaskListResult } from '../../../shared/api'
import { coded } from '../../../shared/error-codes'
import type { ScanResult } from '../../../shared/types'
import type { WorkbenchContext } from '../context'
import { badRequest } from '../errors'
import { userLibraryPath } from '../libraries'
import { searchFile } from '../log-lines'
import { readLogWindow, resolveInsideRoot, taskLogFile } from '../log-window'
import { listingSkill, summariseTasks, type ListingSkill } from '../task-plans'
import { pendingEnhanceTasks } from '../../reflect/decide-io'

export type TaskMethods = 'tasks.list' | 'tasks.readLog' | 'tasks.searchLog'

/**
 * Which skills (of the root's user libraries) list each task folder: key `user\0taskDir`; `pending` holds the keys
 * with an update or enhancement waiting for review in the user's plan.
 */
async function skillsByTask(ctx: WorkbenchContext, root: string, result: ScanResult): Promise<{ byKey: Map<string, ListingSkill[]>; pending: Set<string> }> {
  const out = new Map<string, ListingSkill[]>()
  const pending = new Set<string>()
  const users = [...new Set(result.tasks.map((t) => t.user))]
  for (const user of users) {
    const libPath = userLibraryPath(root, user || 'default')
    const lib = await ctx.registry.libraryOfUser(root, user || 'default')
    if (!lib?.exists) {
      continue
    }
    const store = await ctx.storeFor(libPath).catch(() => undefined)
    const list = store ? await store.list({ includeLegacy: true }).catch(() => undefined) : undefined
    if (store) for (const dir of await pendingEnhanceTasks(store.root)) pending.add(`${user}\u0000${dir}`)
    for (const skill of list?.skills ?? []) {
      for (const dir of skill.task_directories) {
        const key = `${user}\u0000${dir}`
        const arr = out.get(key) ?? []
        arr.push(listingSkill(skill, libPath))
        out.set(key, arr)
      }
    }
  }
  return { byKey: out, pending }
}

/** A root's tasks with their skills and what a reflect run would do with each (the Overview counts the same list). */
export async function listRootTasks(ctx: WorkbenchContext, root: string): Promise<TaskListResult> {
  const known = ctx.registry.requireRoot(root)
  const result = await ctx.scan(known)
  const { byKey, pending } = await skillsByTask(ctx, known, result)
  const key = (t: { user: string; taskDir: string }): string => `${t.user}\u0000${t.taskDir}`
  const tasks = summariseTasks(result.tasks, (t) => byKey.get(key(t)) ?? [], (t) => pending.has(key(t)))
  return { root: result.root, skipped: result.skipped, tasks }
}

export function taskHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, TaskMethods> {
  const { registry } = ctx

  /** A task folder of a known root (scanned, or found but skipped), as its real path. */
  async function requireTaskDir(root: string, taskPath: string): Promise<{ known: string; taskDir: string }> {
    const known = registry.requireRoot(root)
    const taskDir = await resolveInsideRoot(known, taskPath)
    const scanned = ctx.lastScan(known) ?? (await ctx.scan(known))
    const realTasks = await Promise.all(scanned.tasks.map((t) => fsp.realpath(t.path).catch(() => t.path)))
    const skipped = await Promise.all(scanned.skipped.map((t) => fsp.realpath(t.path).catch(() => t.path)))
    if (!realTasks.includes(taskDir) && !skipped.includes(taskDir)) {
      throw badRequest(coded('task.not_in_root', { task: taskPath }))
    }
    return { known, taskDir }
  }

  return {
    'tasks.list': async ({ root }) => listRootTasks(ctx, root),

    'tasks.readLog': async ({ root, taskPath, file, start, at, line, end, maxBytes }) => {
      const { known, taskDir } = await requireTaskDir(root, taskPath)
      return readLogWindow(known, taskDir, { file, start, at, line, end, maxBytes })
    },

    'tasks.searchLog': async ({ root, taskPath, file, query, start }) => {
      const { known, taskDir } = await requireTaskDir(root, taskPath)
      const log = await taskLogFile(known, taskDir, file)
      return searchFile(log.abs, log.file, query, start)
    }
  }
}
