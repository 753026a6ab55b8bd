/**
 * React-query keys, one per resource. Everything of a library sits under ['library', path] and
 * everything of a data root under ['root', path], so one pushed event invalidates a whole subtree.
 */
export const queryKeys = {
  appInfo: () => ['app-info'] as const,
  settings: () => ['settings'] as const,
  roots: () => ['roots'] as const,
  libraries: () => ['libraries'] as const,
  jobs: () => ['jobs'] as const,
  root: (root: string) => ['root', root] as const,
  tasks: (root: string) => ['root', root, 'tasks'] as const,
  log: (root: string, taskPath: string, file: string) => ['root', root, 'log', taskPath, file] as const,
  library: (library: string) => ['library', library] as const,
  skills: (library: string) => ['library', library, 'skills'] as const,
  skill: (library: string, skillId: string) => ['library', library, 'skill', skillId] as const,
  query: (library: string, text: string) => ['library', library, 'query', text] as const,
  curatePlan: (library: string) => ['library', library, 'curate-plan'] as const,
  journal: (library: string) => ['library', library, 'journal'] as const,
  overview: (library: string) => ['library', library, 'overview'] as const,
  usage: (library: string) => ['library', library, 'usage'] as const,
  audit: (library: string) => ['library', library, 'audit'] as const,
  skillAudit: (library: string, skillId: string, hash: string) => ['library', library, 'audit', skillId, hash] as const,
  codeFile: (library: string, path: string) => ['library', library, 'code', path] as const,
  memory: (library: string) => ['library', library, 'memory'] as const,
  memoryStatus: (library: string) => ['library', library, 'memory', 'status'] as const,
  memoryFile: (library: string, name: string) => ['library', library, 'memory', 'file', name] as const,
  memoryPrompt: (library: string) => ['library', library, 'memory', 'prompt'] as const,
  sessions: () => ['sessions'] as const,
  sessionTasks: (source: string, dir: string) => ['session', source, dir, 'tasks'] as const,
  sessionLog: (source: string, dir: string, taskPath: string) => ['session', source, dir, 'log', taskPath] as const
}
