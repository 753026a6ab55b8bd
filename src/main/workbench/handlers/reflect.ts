/** Reflection of a data root's tasks into skills, as a job. */
import path from 'node:path'
import type { ApiHandlers } from '../../../shared/api'
import { coded } from '../../../shared/error-codes'
import type { WorkbenchContext } from '../context'
import { badRequest } from '../errors'

export type ReflectMethods = 'reflect.start'

export function reflectHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, ReflectMethods> {
  const { registry } = ctx
  return {
    'reflect.start': async ({ root, user, tasks, force, llm }) => {
      // its skills are written into the root's libraries: never the bundled sample data's
      const known = registry.requireWritableRoot(root)
      const info = await registry.rootInfo(known)
      if (user !== undefined && user !== '' && !info.users.includes(user)) {
        throw badRequest(coded('task.unknown_user', { user, root: known }))
      }
      let taskPaths: string[] | undefined
      if (tasks?.length) {
        const scanned = ctx.lastScan(known) ?? (await ctx.scan(known))
        const byKey = new Map<string, string>()
        for (const t of scanned.tasks) {
          byKey.set(t.path, t.path)
          byKey.set(t.taskDir, t.path)
        }
        taskPaths = tasks.map((t) => {
          const found = byKey.get(t) ?? byKey.get(path.resolve(t))
          if (!found) {
            throw badRequest(coded('task.not_in_root', { task: t }))
          }
          return found
        })
      }
      const client = await ctx.llmFor(llm)
      const settings = ctx.settingsStore.settings
      return ctx.jobs.start('reflect', async (job) => {
        const summary = await ctx.core.reflect({ root: known, user: user || undefined, tasks: taskPaths, force: force ?? false, settings, llm: client }, job)
        // a user's first skill creates their library folder: watch it too
        await ctx.refreshWatchers()
        return summary
      })
    }
  }
}
