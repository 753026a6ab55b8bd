/** A library's overview: counts, tasks reflected, pending proposals, recent activity and the similarity map. */
import type { ApiHandlers, OverviewResult, TaskSummary } from '../../../shared/api'
import { waitsForReview } from '../../../shared/proposal-status'
import { protectionReason } from '../../curate/protect'
import type { WorkbenchContext } from '../context'
import { buildOverview, readRecentActivity } from '../overview'
import { taskCounts } from '../task-plans'
import { listRootTasks } from './tasks'

export type OverviewMethods = 'overview.get'

export interface OverviewSources {
  /** The tasks of the session folders (Claude Code, Codex) whose skills go into a library. */
  sessionTasks?: (library: string) => Promise<{ sources: NonNullable<OverviewResult['sessionSources']>; tasks: TaskSummary[] }>
}

export function overviewHandlers(ctx: WorkbenchContext, sources: OverviewSources = {}): Pick<ApiHandlers, OverviewMethods> {
  const { registry, core, storeFor } = ctx
  return {
    'overview.get': async ({ library }) => {
      const info = await registry.requireLibrary(library)
      const list = info.exists ? await (await storeFor(library)).list({ includeLegacy: true }) : { skills: [], errors: [] }
      // the same list the Reflect and Workspaces screens show, judged as a reflect run would judge it
      const tasks: TaskSummary[] = []
      if (info.root && info.user !== undefined) {
        // a user with tasks but no library folder yet still has tasks to count
        const listed = await listRootTasks(ctx, info.root).catch(() => undefined)
        tasks.push(...(listed?.tasks ?? []).filter((t) => t.user === info.user))
      }
      const sessions = await sources.sessionTasks?.(info.path).catch(() => undefined)
      tasks.push(...(sessions?.tasks ?? []))
      const counts = { ...taskCounts(tasks), ...(sessions?.sources.length ? { sessionSources: sessions.sources } : {}) }
      if (!info.exists) {
        return { ...emptyOverview(), ...counts }
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
        ...counts,
        // what the Curate screen offers to review: pending, and undone (back in the plan)
        pendingProposals: plan ? plan.plan.proposals.filter(waitsForReview).length : 0,
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
