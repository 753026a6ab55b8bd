/**
 * The audit in the app: one skill's findings (its side panel, read fresh: a few files) and a library's counts (the
 * Overview, through the audit's result cache in the user's cache folder, so a repeat costs about a `list`).
 * Reading only: nothing in the library is written.
 */
import path from 'node:path'
import type { ApiHandlers, AuditFindingInfo, AuditLibraryResult } from '../../../shared/api'
import { auditPaths } from '../../audit/read-paths'
import { defaultCacheDir } from '../../cache-dir'
import type { WorkbenchContext } from '../context'

export type AuditMethods = 'audit.skill' | 'audit.library'

/** The finding as the contract carries it (the path on disk left out: the renderer has the skill's). */
function info(f: AuditFindingInfo): AuditFindingInfo {
  return { skill: f.skill, file: f.file, line: f.line, rule: f.rule, severity: f.severity, message: f.message, ...(f.excerpt ? { excerpt: f.excerpt } : {}) }
}

export function auditHandlers(ctx: WorkbenchContext): Pick<ApiHandlers, AuditMethods> {
  const env = ctx.deps.env ?? process.env
  return {
    'audit.skill': async ({ library, skillId }) => {
      await ctx.registry.requireLibrary(library)
      const store = await ctx.storeFor(library)
      const skill = await store.get(skillId, { includeLegacy: true })
      const abs = path.join(store.root, ...skill.path.split('/'))
      // a SKILL.md skill is its folder (scripts, references); an AGIAgent skill is its one file
      const target = skill.format === 'skill-md' ? path.dirname(abs) : abs
      const result = await auditPaths([target])
      return { findings: result.findings.map(info) }
    },
    'audit.library': async ({ library }) => {
      const libraryInfo = await ctx.registry.requireLibrary(library)
      const empty: AuditLibraryResult = { skills: 0, counts: { high: 0, medium: 0, low: 0 }, flagged: [], cached: 0 }
      if (!libraryInfo.exists) return empty
      const store = await ctx.storeFor(library)
      const result = await auditPaths([store.root], { cacheDir: defaultCacheDir(env) })
      const out: AuditLibraryResult = { ...empty, counts: { high: 0, medium: 0, low: 0 }, skills: result.skills, cached: result.cached }
      const bySkill = new Map<string, AuditLibraryResult['flagged'][number]>()
      for (const f of result.findings) {
        out.counts[f.severity]++
        // the skill's folder (or file) inside the library: the finding's path without the file inside the skill
        const unit = f.path.slice(0, Math.max(0, f.path.length - f.file.length - 1)) || f.path
        const rel = path.relative(store.root, unit).split(path.sep).join('/') || f.file
        const row = bySkill.get(rel) ?? { name: f.skill, path: rel, high: 0, medium: 0, low: 0 }
        row[f.severity]++
        bySkill.set(rel, row)
      }
      // the skill's id, so the Overview opens it in the editor
      const ids = new Map((await store.list()).skills.map((sk) => [sk.format === 'skill-md' ? path.posix.dirname(sk.path) : sk.path, sk.skill_id]))
      for (const row of bySkill.values()) {
        const id = ids.get(row.path)
        if (id) row.skill_id = id
      }
      out.flagged = [...bySkill.values()].sort((a, b) => b.high - a.high || b.medium - a.medium || b.low - a.low || (a.path < b.path ? -1 : 1))
      return out
    }
  }
}
