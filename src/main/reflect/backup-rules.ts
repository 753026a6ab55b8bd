/**
 * Which output files a reflection may back up: code and documents only (seed: no configs, no images),
 * the same extension list as upstream `copy_skill_files`. The copy itself goes through the skill tools,
 * which enforce their own rules again; this predicate only decides what to ask for.
 */
export const BACKUP_EXTENSIONS: readonly string[] = [
  '.py', '.js', '.ts', '.java', '.cpp', '.c', '.h', '.hpp', '.go', '.rs', '.rb', '.php', '.md', '.txt', '.rst'
]

/** True for a workspace-relative path with a backed-up extension (case-insensitive). */
export function isBackupCandidate(relPath: string): boolean {
  const lower = relPath.toLowerCase()
  const dot = lower.lastIndexOf('.')
  return dot > lower.lastIndexOf('/') && BACKUP_EXTENSIONS.includes(lower.slice(dot))
}
