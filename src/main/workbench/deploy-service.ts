/**
 * The contract methods for skills coming in from git (install, update) and going out to agents (deploy). The
 * renderer names a library the workbench listed; sources and targets are what the person typed (a URL, a
 * repository folder, `claude`, a skills folder). Relative folders are refused: there is no working directory a
 * person could mean in the app.
 */
import os from 'node:os'
import path from 'node:path'
import type { ApiHandlers, LibraryInfo } from '../../shared/api'
import type { DeployTargetInfo } from '../../shared/api-deploy'
import type { UsageLookup } from '../deploy/choose'
import { coded } from '../../shared/error-codes'
import { badRequest } from './errors'

type DeployMethods = 'sources.install' | 'sources.update' | 'deploy.targets' | 'deploy.preview' | 'deploy.run' | 'deploy.config' | 'deploy.setEnabled' | 'deploy.setProfile'

export interface DeployServiceDeps {
  requireLibrary: (library: string) => Promise<LibraryInfo>
  env: NodeJS.ProcessEnv
  /**
   * Uses per skill id from the app's usage index (agents' logs, the ledger), asked only when a target is over its
   * budget: the suggestions then name the least used first, as `skillbench deploy` does.
   */
  usageOf?: (library: string) => UsageLookup
}

/** Who is at the app (the provenance's `allowed_by`): the OS user name and host. */
function appUser(env: NodeJS.ProcessEnv): string {
  let user = env.USER ?? env.USERNAME ?? ''
  try {
    user = os.userInfo().username || user
  } catch {
    // no passwd entry (containers): the environment's name
  }
  return `${user || 'unknown'}@${os.hostname()}`
}

/** A folder typed in the app must be absolute (`~/…` allowed); URLs and agent names pass through. */
function requireAbsolute(value: string, what: 'source' | 'target'): void {
  const folder = value.replace(/^(claude-project|agents|gemini-project|opencode-project):/, '')
  const isName = ['claude', 'codex', 'gemini', 'opencode'].includes(value)
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^[\w.-]+@[\w.-]+:/.test(value)
  if (!isName && !isUrl && !path.isAbsolute(folder) && !folder.startsWith('~/') && folder !== '~') throw badRequest(coded('path.not_absolute_or_url', { what: coded(what === 'source' ? 'path.what_source' : 'path.what_target'), value: JSON.stringify(value.slice(0, 200)) }))
}

export function deployHandlers(deps: DeployServiceDeps): Pick<ApiHandlers, DeployMethods> {
  const home = async (): Promise<string> => (await import('../deploy/targets')).homeOf(deps.env)
  return {
    'sources.install': async ({ library, source, ref, path: subdir, skills, allowRisk }) => {
      const info = await deps.requireLibrary(library)
      requireAbsolute(source, 'source')
      const { installFromSource } = await import('../sources/install')
      // a held skill is taken only when the person chose it in the dialog, after reading its findings
      const report = await installFromSource({ library: info.path, source, ref, path: subdir, skills, cwd: await home(), env: deps.env, allowRisk, allowedBy: allowRisk?.length ? `${appUser(deps.env)} (Skillbench app: Install anyway)` : undefined })
      return report
    },
    'sources.update': async ({ library }) => {
      const info = await deps.requireLibrary(library)
      if (!info.exists) return { checked: 0, proposals: [], unchanged: [], failed: [] }
      const { updateFromSources } = await import('../sources/update')
      const report = await updateFromSources({ library: info.path, cwd: await home(), env: deps.env })
      return report
    },
    'deploy.targets': async ({ library }) => {
      await deps.requireLibrary(library)
      const fs = await import('node:fs')
      const { knownTargets } = await import('../deploy/targets')
      return knownTargets(deps.env).map(
        (t): DeployTargetInfo => ({ spec: t.spec, agent: t.agent, label: t.label, dir: t.dir, exists: fs.existsSync(t.dir), budget: t.budget?.chars ?? null })
      )
    },
    'deploy.preview': async ({ library, to, skills, profile }) => {
      const info = await deps.requireLibrary(library)
      requireAbsolute(to, 'target')
      const { deploy } = await import('../deploy/run')
      return deploy({ library: info.path, to, skills, profile, dryRun: true, cwd: await home(), env: deps.env, usage: deps.usageOf?.(library) })
    },
    'deploy.run': async ({ library, to, skills, profile }) => {
      const info = await deps.requireLibrary(library)
      requireAbsolute(to, 'target')
      const { deploy } = await import('../deploy/run')
      const result = await deploy({ library: info.path, to, skills, profile, cwd: await home(), env: deps.env, by: 'user', usage: deps.usageOf?.(library) })
      return result
    },
    'deploy.config': async ({ library }) => {
      const info = await deps.requireLibrary(library)
      if (!info.exists) return { profiles: {}, disabled: {} }
      const { readDeployConfig } = await import('../deploy/deploy-config')
      return readDeployConfig(info.path)
    },
    'deploy.setEnabled': async ({ library, to, skills, enabled }) => {
      const info = await deps.requireLibrary(library)
      requireAbsolute(to, 'target')
      const { setSkillsEnabled } = await import('../deploy/selection-service')
      const config = await setSkillsEnabled(info.path, to, skills, enabled, { env: deps.env, cwd: await home() })
      return config
    },
    'deploy.setProfile': async ({ library, name, profile }) => {
      const info = await deps.requireLibrary(library)
      for (const t of profile?.targets ?? []) requireAbsolute(t, 'target')
      const { setDeployProfile } = await import('../deploy/selection-service')
      const config = await setDeployProfile(info.path, name, profile, { env: deps.env, cwd: await home() })
      return config
    }
  }
}
