/** A library's overview: counts, tasks reflected, pending proposals, recent activity and the similarity map. */
import type { ApiHandlers, OverviewResult } from '../../../shared/api'
import { protectionReason } from '../../curate/protect'
import type { WorkbenchContext } from '../context'
import { buildOverview, readRecentActivity } from '../overview'

export type OverviewMethods = 'overview.get'

export function overviewHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, OverviewMethods> {
  const { registry, core, storeFor } = ctx
  return {
    'overview.get': async ({ library }) => {
      const info = await registry.requireLibrary(library)
      let taskCount = 0
      let reflectedTasks = 0
      const list = info.exists ? await (await storeFor(library)).list({ includeLegacy: true }) : { skills: [], errors: [] }
      if (info.root && info.user !== undefined) {
        // a user with tasks but no library folder yet still has tasks to count
        const scanned = await ctx.scan(info.root).catch(() => undefined)
        if (scanned) {
          const reflected = new Set(list.skills.flatMap((s) => s.task_directories))
          const mine = scanned.tasks.filter((t) => t.user === info.user)
          taskCount = mine.length
          reflectedTasks = mine.filter((t) => reflected.has(t.taskDir)).length
        }
      }
      if (!info.exists) {
        return { ...emptyOverview(), tasks: taskCount }
      }
      const store = await storeFor(library)
      const plan = await core.readPlan(store).catch(() => undefined)
      const journal = await core.journal(store).catch(() => [])
      const recent = await readRecentActivity(store.root, journal, list.skills)
      const active = list.skills.filter((s) => !s.legacy)
      const protectedIds = new Map<string, 'pinned' | 'edited'>()
      for (const s of active) {
        const why = protectionReason(s, true)
        if (why) protectedIds.set(s.skill_id, s.pinned === true ? 'pinned' : 'edited')
      }
      return buildOverview({
        skills: list.skills,
        errors: list.errors,
        tasks: taskCount,
        reflectedTasks,
        pendingProposals: plan ? plan.plan.proposals.filter((p) => !p.status || p.status === 'pending').length : 0,
        planComputed: Boolean(plan?.computedAt),
        recent,
        protectedIds,
        graph: await core.similarityGraph(active, ctx.settingsStore.settings.thresholds)
      })
    }
  }
}

function emptyOverview(): OverviewResult {
  return {
    skills: 0,
    legacy: 0,
    errors: 0,
    errorFiles: [],
    planComputed: false,
    tasks: 0,
    reflectedTasks: 0,
    pendingProposals: 0,
    qualityHistogram: new Array<number>(10).fill(0),
    recent: [],
    graph: { nodes: [], edges: [] }
  }
}
