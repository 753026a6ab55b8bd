/** The data roots and skill libraries the app knows: listed, added, removed, opened. */
import path from 'node:path'
import type { ApiHandlers } from '../../../shared/api'
import type { WorkbenchContext } from '../context'

export type PlaceMethods = 'roots.list' | 'roots.add' | 'roots.remove' | 'libraries.list' | 'libraries.open'

export function placeHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, PlaceMethods> {
  const { deps, registry } = ctx
  return {
    'roots.list': async () => registry.listRoots(),

    'roots.add': async ({ path: p }) => {
      await registry.addRoot(p)
      await ctx.refreshWatchers()
      deps.emit({ type: 'settings.changed' })
      return registry.listRoots()
    },

    'roots.remove': async ({ path: p }) => {
      await registry.removeRoot(p)
      ctx.forgetScan(path.resolve(p))
      await ctx.refreshWatchers()
      deps.emit({ type: 'settings.changed' })
      return registry.listRoots()
    },

    'libraries.list': async () => registry.listLibraries(),

    'libraries.open': async ({ path: p }) => {
      await registry.openFolder(p)
      await ctx.refreshWatchers()
      return registry.listLibraries()
    }
  }
}
