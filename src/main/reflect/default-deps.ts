import { scanRoot } from '../scan/scan-root'
import { openLibrary } from '../store/library'
import { copySkillFiles } from '../tools/copy-files'
import type { BackupFiles, ReflectionDeps } from './run-reflection'

/** Backs up a reflection's chosen files through the skill tools' copy_skill_files rules (code and docs only, guarded). */
export const backupWithSkillTools: BackupFiles = async ({ store, skill, workspaceDir, files }) => {
  const r = await copySkillFiles(store, skill.skill_id, files, workspaceDir)
  return {
    copied: Array.isArray(r.copied) ? (r.copied as string[]) : [],
    skipped: Array.isArray(r.skipped) ? (r.skipped as { path: string; reason: string }[]) : []
  }
}

/** The production wiring: the real scanner, store and file backup; callers add the model client. */
export function defaultReflectionDeps(extra: Partial<ReflectionDeps> = {}): ReflectionDeps {
  return {
    scan: (o) => scanRoot({ rootDir: o.rootDir, signal: o.signal }),
    openStore: (dir) => openLibrary(dir),
    backupFiles: backupWithSkillTools,
    ...extra
  }
}
