/** The tasks of a data root: listed with the skills reflected from each, and their logs read and searched. */
import { promises as fsp } from 'node:fs'
import type { ApiHandlers, TaskSummary } from '../../../shared/api'
import type { ScanResult } from '../../../shared/types'
import type { WorkbenchContext } from '../context'
import { badRequest } from '../errors'
import { userLibraryPath } from '../libraries'
import { searchFile } from '../log-lines'
import { readLogWindow, resolveInsideRoot, taskLogFile } from '../log-window'

export type TaskMethods = 'tasks.list' | 'tasks.readLog' | 'tasks.searchLog'

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
      throw badRequest(`not a task of this data root: ${taskPath}`)
    }
    return { known, taskDir }
  }

  /** Which skills (of the root's user libraries) list each task folder: key `user\0taskDir`. */
  async function skillsByTask(root: string, result: ScanResult): Promise<Map<string, TaskSummary['skills']>> {
    const out = new Map<string, TaskSummary['skills']>()
    const users = [...new Set(result.tasks.map((t) => t.user))]
    for (const user of users) {
      const libPath = userLibraryPath(root, user || 'default')
      const lib = await registry.libraryOfUser(root, user || 'default')
      if (!lib?.exists) {
        continue
      }
      const store = await ctx.storeFor(libPath).catch(() => undefined)
      const list = store ? await store.list({ includeLegacy: true }).catch(() => undefined) : undefined
      for (const skill of list?.skills ?? []) {
        for (const dir of skill.task_directories) {
          const key = `${user}\u0000${dir}`
          const arr = out.get(key) ?? []
          arr.push({ skill_id: skill.skill_id, title: skill.title, library: libPath, legacy: skill.legacy })
          out.set(key, arr)
        }
      }
    }
    return out
  }

  return {
    'tasks.list': async ({ root }) => {
      const known = registry.requireRoot(root)
      const result = await ctx.scan(known)
      const reflectedBy = await skillsByTask(known, result)
      const tasks: TaskSummary[] = result.tasks.map((t) => {
        const skills = reflectedBy.get(`${t.user}\u0000${t.taskDir}`) ?? []
        return { ...t, reflected: skills.length > 0, skills }
      })
      return { root: result.root, skipped: result.skipped, tasks }
    },

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
