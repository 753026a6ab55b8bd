/**
 * The one API contract between the workbench core and every front end.
 *
 * Both transports carry exactly this: Electron IPC (`window.api` from the preload) and web mode
 * (HTTP POST `/api/<method>` + server-sent events). The renderer only sees `SkillbenchApi`.
 * Every input has a runtime schema: hosts parse inputs with it before calling the core.
 */
import type { MessageCode, MessageParams } from './error-codes'
import type { ApiErrorShape } from './api-error'
import { z } from 'zod'
import type {
  CurationPlan,
  FileChange,
  JournalEntry,
  Proposal,
  QueryResult,
  ScanResult,
  Settings,
  Skill,
  SkillFormat,
  LoadError,
  TaskTrace,
  UsageReport
} from './types'
import { DEPLOY_INPUT_SCHEMAS, type DeployOutputs } from './api-deploy'
import { AUDIT_INPUT_SCHEMAS, type AuditOutputs } from './api-audit'
import { SYNC_INPUT_SCHEMAS, type SyncOutputs, type SyncSummary } from './api-sync'
import type { JobInfo, JobKind } from './api-jobs'

// ---------- value types only the API uses ----------

/** Settings as the renderer may see them: never the API key itself. */
export interface PublicSettings extends Omit<Settings, 'llm'> {
  llm: Omit<Settings['llm'], 'apiKey'> & {
    hasApiKey: boolean
    /** e.g. `sk-…abcd`, or '' */
    apiKeyHint: string
    /** How the key is kept: Electron safeStorage, a 0600 settings file (web mode), or not at all. */
    keyStorage: 'safeStorage' | 'file-0600' | 'none'
    /** Added by the hosts helper: set when the key cannot be kept safely (e.g. Linux without a keyring: kept for this run only). */
    keyWarning?: string
  }
}

export interface AppInfo {
  version: string
  transport: 'electron' | 'web'
  platform: string
  settingsPath: string
  /** Changes every time the workbench starts (the renderer applies `startRoot` once per run). */
  runId: string
  /** The data root given for this run (`skillbench serve --root-dir DIR`): the app opens on it. */
  startRoot?: string
}

/** A library the workbench knows: one per user of each data root, plus SKILL.md folders the user opened. */
export interface LibraryInfo {
  /** Absolute path; also the library's id in every call. */
  path: string
  label: string
  root?: string
  user?: string
  /** 'opened' = a folder added by hand. */
  origin: 'root' | 'opened'
  exists: boolean
  /**
   * The bundled sample data (the copy of resources/sample-data that `npm start` makes in the settings folder, or
   * that folder itself): demo skills, which the Deploy screen warns about before they go into an agent's folder.
   */
  sample?: true
}

/** A skill row in the list: everything but the body (10,000 rows must stay light). */
export type SkillSummary = Omit<Skill, 'body'> & { preview: string; bodyChars: number }

export interface SkillListResult {
  skills: SkillSummary[]
  errors: LoadError[]
  /**
   * What went wrong with the library as a whole that Skillbench could not set right itself (an interrupted change
   * that could not be rolled back, index.json that could not be updated): English `message`, and by code beside it.
   * Absent when there is none.
   */
  problems?: LibraryProblem[]
  /**
   * Present when some `problems` are what a recovery did (kept on disk, `.skillbench/recovery-log`): the log's byte
   * offset they go up to, for `skills.dismissProblems` (later recoveries stay shown).
   */
  problemsDismissUpTo?: number
}

/** A problem of a whole library, as `skills.list` reports it (a CodedLine: English `message` + its code). */
export interface LibraryProblem {
  message: string
  messageCode?: MessageCode
  params?: MessageParams
}

/** One skill with its full file text, for the editor. */
export interface SkillDocument {
  skill: Skill
  /** The whole file (front matter + body) exactly as on disk. */
  text: string
  /** Library-relative paths of backed-up code (codes/task_…/…). */
  relatedFiles: string[]
}

/**
 * Why a data root shows no tasks: `missing` (no such folder), `empty` (an empty folder), `library` (a skill
 * library was given instead of a root), `task-folder` (one `output_*` task folder), `sessions` (a folder of agent
 * session `.jsonl` files), `no-tasks` (nothing in the AGIAgent layout `<root>/<user>/output_<time>/logs/manager.out`),
 * `bundled-sample` (the install's sample data, never written: the app's own verdict, not the folder's).
 */
export type RootProblem = 'missing' | 'empty' | 'library' | 'task-folder' | 'sessions' | 'no-tasks' | 'bundled-sample'

export interface DataRootInfo {
  path: string
  exists: boolean
  users: string[]
  taskCount: number
  /** Kept in the settings file for the next start. */
  remembered: boolean
  /** Given on the command line for this run only (forgotten when the app stops unless remembered). */
  thisRunOnly: boolean
  /** Set when the root shows no tasks, saying why; `bundled-sample` whatever it holds (never written: see `bundledSample`). */
  problem?: RootProblem
  /**
   * The root is in the sample data bundled with the install (resources/sample-data), remembered by an older version
   * (the app no longer adds one): kept in the settings file and listed, read-only — none of its libraries is listed,
   * nothing reflects into it. `copy` is its writable copy in the settings folder, `sample` the bundled folder: the
   * words are `library.bundled_sample_read_only`'s.
   */
  bundledSample?: { copy: string; sample: string }
}

/** A task in the Workspaces list: the trace plus what was made from it. */
export interface TaskSummary extends TaskTrace {
  reflected: boolean
  /** Skills (active or legacy) whose task_directories list this task. */
  skills: { skill_id: string; title: string; library: string; legacy: boolean }[]
  /** What `reflect` would do with it now (the Reflect screen and the Overview count from this). */
  plan?: TaskPlan
}

/**
 * What reflection would do with a task (issue 36): `new` → a skill (with its follow-ups), `update` → its skill was
 * written while it was unfinished and it has finished since (a reviewable update), `no-skill` → nothing and why.
 */
export interface TaskPlan {
  state: 'new' | 'reflected' | 'update' | 'no-skill'
  why?: NoSkillWhy
  /** `follow-up`: the task it continues. */
  of?: string
}

export interface TaskListResult extends Omit<ScanResult, 'tasks'> {
  tasks: TaskSummary[]
}

/** A window of a raw log file, for the virtualised log view. */
export interface LogChunk {
  file: string
  size: number
  /** Byte offsets of this window (it ends after a newline unless it reaches the end or a line is longer than the window). */
  start: number
  end: number
  /** 1-based number of the window's first line in the file. */
  firstLine: number
  text: string
  /** Log files of the task (manager.out, agent_001.out…). */
  files: string[]
}

/** Matches of a text search in one log file, in file order. */
export interface LogSearchResult {
  file: string
  size: number
  matches: { offset: number; line: number; text: string }[]
  /** The search stopped after this many matches (search again from the last offset + 1 for more). */
  limited: boolean
}

/** A skill file read as text, whether or not it parses (for fixing unreadable files in the editor). */
export interface SkillFileText {
  /** Library-relative path. */
  path: string
  text: string
  hash: string
  /** What is wrong with it (null = it loads as a skill), with the 1-based line/column when known, and by code. */
  problem: { reason: string; line?: number; column?: number; messageCode?: MessageCode; params?: MessageParams } | null
  /** The skill's id once the file loads as a skill. */
  skillId?: string
}

export interface RateResult {
  skill_id: string
  before: number
  after: number
}

export interface OverviewResult {
  skills: number
  legacy: number
  errors: number
  tasks: number
  reflectedTasks: number
  /** Tasks reflection would make a skill of now, or propose a finished version for (the Reflect screen's list). */
  newTasks?: number
  /** Tasks reflection makes no skill of (greeting, no work, unfinished, follow-up), counted by reason. */
  noSkillTasks?: number
  noSkillWhy?: Partial<Record<NoSkillWhy, number>>
  /** The session folders (Claude Code, Codex…) whose skills go into this library: their tasks are counted too. */
  sessionSources?: { source: SessionSourceKind; dir: string }[]
  pendingProposals: number
  qualityHistogram: number[]
  recent: RecentActivity[]
  /** The files that could not be read (first 100), to open and fix. */
  errorFiles: { path: string; reason: string }[]
  /** A curation plan was computed for this library at least once. */
  planComputed: boolean
  graph: {
    /** `protected`: left out of curation (pinned, or edited by a person). */
    nodes: { id: string; title: string; quality: number; cluster: number; protected?: 'pinned' | 'edited' }[]
    edges: { source: string; target: string; similarity: number }[]
  }
}

/** One line of recent activity; the renderer words it in the UI language. */
export type RecentActivity =
  | { at: string; kind: 'skill-created' | 'skill-updated'; title: string; skill_id: string }
  | { at: string; kind: 'curation-applied' | 'curation-undone'; proposalKind: string; by: string }
  | { at: string; kind: 'log'; level: 'info' | 'warning' | 'error'; text: string }

/** Why a connection test failed, so each cause gets its own advice. */
export type LlmTestProblem = 'bad_url' | 'bad_port' | 'refused' | 'unknown_host' | 'tls' | 'auth' | 'timeout' | 'not_found' | 'http' | 'no_model' | 'other'

export interface LlmTestResult {
  ok: boolean
  model: string
  latencyMs: number
  message: string
  problem?: LlmTestProblem
}

export type { JobKind } from './api-jobs'

// ---------- memory (issue 7) ----------

/** Where a library's memory lives: `<workspace>/memory/`. Default for a data-root user: `<root>/<user>`. */
export interface MemoryWorkspaceInfo {
  library: string
  /** The folder holding `memory/`; null when none is set (a folder opened by hand has no default). */
  workspace: string | null
  /** `<workspace>/memory`, or null. */
  dir: string | null
  isDefault: boolean
  /** Whether the memory folder exists yet (it is created on the first write). */
  exists: boolean
}

export interface MemoryFileInfo {
  /** `lessons.md`, `preferences.md`, `procedural.md`, `long-term.md` or `logs/YYYY-MM-DD.md`. */
  name: string
  exists: boolean
  bytes: number
  /** Bullet entries (long-term.md: consolidated days). */
  entries: number
}

export interface PendingPreferenceInfo {
  id: string
  text: string
  source: string
  found_at: string
}

/** A preference "Learn from tasks" (or reflection) proposed: a memory proposal waiting in the library's review plan. */
export interface ProposedPreferenceInfo {
  /** The proposal's id (the Curate screen opens on it). */
  proposalId: string
  text: string
  /** How many tasks stated it. */
  tasks: number
}

export interface MemoryStatusResult extends MemoryWorkspaceInfo {
  /** The `enable_long_term_memory` setting (agents' skill tools answer only when on). */
  enabled: boolean
  files: MemoryFileInfo[]
  /** Preferences found in task logs with "Find preferences", queued in the memory folder: accepted or rejected here. */
  pendingPreferences: PendingPreferenceInfo[]
  /** Preferences proposed for review in the library's plan, for this memory folder: reviewed on the Curate screen. */
  proposedPreferences: ProposedPreferenceInfo[]
  /** The preferences in long-term memory (long-term.md's preferences block), accepted from either. */
  longTermPreferences: string[]
  logDays: string[]
  consolidatedDays: string[]
}

/** A memory file for the editor (text and hash null when it does not exist yet). */
export interface MemoryDocument {
  name: string
  text: string | null
  hash: string | null
}

export interface MemoryConsolidateResult {
  consolidated: { day: string; method: string; chars: number }[]
  skipped: { day: string; reason: string }[]
  /** `messageCode` + `params`: the error by code when it carried one (error-codes.ts). */
  failed: { day: string; error: string; messageCode?: MessageCode; params?: MessageParams }[]
}

export interface MemoryPromptResult {
  sections: { key: 'lessons' | 'preferences' | 'procedural'; heading: string; entries: string[]; omitted: number }[]
  /** The sections as an agent's system prompt would include them. */
  text: string
}

/** A backed-up code file of a skill, read-only. */
export interface CodeFile {
  /** Library-relative, under `codes/`. */
  path: string
  size: number
  /** The text (the first `CODE_FILE_MAX_BYTES` bytes when truncated); '' for a binary file. */
  text: string
  truncated: boolean
  binary: boolean
}

/** Largest part of a code file sent to the viewer. */
export const CODE_FILE_MAX_BYTES = 1_000_000

// ---------- session sources (issue 6) ----------

export type SessionSourceKind = 'claude' | 'codex' | 'synapse'

/** A folder of another agent's sessions, shown on the Workspaces screen beside AGIAgent roots. */
export interface SessionSourceInfo {
  source: SessionSourceKind
  dir: string
  /** The library skills made from this folder's sessions go to (chosen by the user, remembered). */
  targetLibrary?: string
  /** Found at the agent's default location (`~/.claude/projects`, `~/.codex/sessions`, `~/.synapse/sessions`). */
  detected: boolean
  /** Added by hand (remembered in settings). */
  added: boolean
  exists: boolean
}

export type { JobInfo } from './api-jobs'

/** Progress of a long job, pushed as it happens. */
export interface JobProgress {
  jobId: string
  kind: JobKind
  /** 0..1 */
  fraction: number
  /** e.g. 'task-start', 'task-step', 'task-done', 'task-failed', 'step', 'log'. */
  stage: string
  /** With 'task-step': what the task is doing now (`read`, `model`, `write`, `backup`, `decide`). */
  step?: string
  message: string
  /** The message's code and params (error-codes.ts) when the table has it: the UI words it by code. */
  messageCode?: MessageCode
  params?: MessageParams
  taskDir?: string
  skillPath?: string
  index?: number
  total?: number
}

/** Why reflection made no skill of a task (issue 36). */
export type NoSkillWhy = 'greeting' | 'no-work' | 'little-work' | 'unfinished' | 'follow-up'

/**
 * A task a run made no skill of: `reason` in English (what `reflect --json`, scripts and logs read), its code and
 * params beside it (a screen words it in its own language; absent in what an older version sent).
 */
export interface ReflectSkipped {
  taskDir: string
  reason: string
  messageCode?: MessageCode
  params?: MessageParams
  /**
   * The task made no skill on purpose (issue 36): a greeting, no work done, too little work, unfinished (it is
   * reflected once it finishes), or a follow-up folded into the task `of`. Absent for the other skips.
   */
  why?: NoSkillWhy
  of?: string
}

export interface ReflectSummary {
  created: { taskDir: string; skill_id: string; path: string; library: string }[]
  skipped: ReflectSkipped[]
  /** A task that failed: its English `error` (first line, secrets redacted), the error's code and params beside it when it had them. */
  failed: { taskDir: string; error: string; messageCode?: MessageCode; params?: MessageParams }[]
  cancelled: boolean
  /** Things that went wrong beside the tasks (e.g. the reflection log could not be written), said to the user. */
  warnings?: string[]
  /** The review proposals this run left (enhancements, finished versions), decided on Curate. */
  proposals?: string[]
}

export interface CurateSummary {
  library: string
  plan: CurationPlan
}

/** Pushed events, main → renderer. */
export type ApiEvent =
  | { type: 'files.changed'; library?: string; root?: string; paths: string[] }
  | { type: 'job.progress'; progress: JobProgress }
  | {
      type: 'job.done'
      jobId: string
      kind: JobKind
      state: 'done' | 'failed' | 'cancelled'
      result?: ReflectSummary | CurateSummary | SyncSummary
      /** A failed job's English message (kept for older clients; `failure` says the same with its codes). */
      error?: string
      /** A failed job's error as every transport sends one: kind, English, `messageCode` + `params` to word it by. */
      failure?: ApiErrorShape
    }
  | { type: 'settings.changed' }

/** Errors cross every transport in this shape (api-error.ts): a kind `code`, English `message`, `messageCode` + `params`. */
export type { ApiErrorShape } from './api-error'

// ---------- input schemas ----------

const library = z.string().min(1).max(4096)
const skillId = z.string().min(1).max(200)
const llmChoice = z.enum(['offline', 'openai']).optional()

const memoryName = z.string().min(1).max(40)
const sessionSource = z.enum(['claude', 'codex', 'synapse'])
const folder = z.string().min(1).max(4096)

const settingsPatch = z
  .object({
    dataRoots: z.array(z.string().max(4096)).max(100),
    llm: z
      .object({
        provider: z.enum(['offline', 'openai']),
        baseUrl: z.string().max(2048),
        model: z.string().max(200),
        temperature: z.number().min(0).max(2),
        timeoutMs: z.number().int().min(1000).max(600_000),
        concurrency: z.number().int().min(1).max(32)
      })
      .partial(),
    thresholds: z
      .object({
        merge: z.number().min(0).max(1),
        eps: z.number().min(0).max(1),
        minSamples: z.number().int().min(1).max(100),
        cleanupDays: z.number().int().min(0).max(36500)
      })
      .partial(),
    reflectBudgetChars: z.number().int().min(1000).max(2_000_000),
    maxEnhanceContextChars: z.number().int().min(1000).max(2_000_000),
    enableLongTermMemory: z.boolean(),
    autoEnhance: z.boolean(),
    proposalOnlyTools: z.object({ edit: z.boolean(), delete: z.boolean() }).partial(),
    language: z.enum(['en', 'zh'])
  })
  .partial()

export type SettingsPatch = z.infer<typeof settingsPatch>

const fileChange = z.object({
  path: z.string().min(1).max(4096),
  before: z.string().nullable(),
  after: z.string().nullable()
})

/** Runtime schemas of every method's single input object. */
export const API_INPUT_SCHEMAS = {
  'app.info': z.object({}),
  'settings.get': z.object({}),
  'settings.update': z.object({ patch: settingsPatch }),
  'settings.setApiKey': z.object({ apiKey: z.string().max(4096).nullable() }),
  /** Tests the saved endpoint, or the values given (the form before it is saved); the stored key is used unless one is given. */
  'llm.test': z.object({
    baseUrl: z.string().max(2048).optional(),
    model: z.string().max(200).optional(),
    timeoutMs: z.number().int().min(1000).max(600_000).optional()
  }),
  'roots.list': z.object({}),
  'roots.add': z.object({ path: z.string().min(1).max(4096) }),
  'roots.remove': z.object({ path: z.string().min(1).max(4096) }),
  'tasks.list': z.object({ root: z.string().min(1).max(4096) }),
  'tasks.readLog': z.object({
    root: z.string().min(1).max(4096),
    taskPath: z.string().min(1).max(4096),
    file: z.string().max(255).optional(),
    /** The byte offset to start at (the previous window's `end` when paging). */
    start: z.number().int().min(0).optional(),
    /** Or: a byte offset inside the line to start at (jumps to a tool call or a search match). */
    at: z.number().int().min(0).optional(),
    /** Or: a 1-based line number to start at. */
    line: z.number().int().min(1).optional(),
    /** Read exactly up to this byte offset (to join the window after it), instead of maxBytes. */
    end: z.number().int().min(0).optional(),
    maxBytes: z.number().int().min(1).max(4_000_000).optional()
  }),
  'tasks.searchLog': z.object({
    root: z.string().min(1).max(4096),
    taskPath: z.string().min(1).max(4096),
    file: z.string().max(255).optional(),
    query: z.string().min(1).max(500),
    start: z.number().int().min(0).optional()
  }),
  'libraries.list': z.object({}),
  'libraries.open': z.object({ path: z.string().min(1).max(4096) }),
  'skills.list': z.object({ library, includeLegacy: z.boolean().optional() }),
  /** The person dismissed the recoveries shown (skills.list's problemsDismissUpTo); nothing is deleted, they are marked seen. */
  'skills.dismissProblems': z.object({ library, upTo: z.number().int().min(0) }),
  'skills.get': z.object({ library, skillId, includeLegacy: z.boolean().optional() }),
  'skills.query': z.object({ library, text: z.string().min(1).max(10_000), top: z.number().int().min(1).max(100).optional() }),
  // baseText (optional): the text the editor loaded; uses counted into the file since then are carried over, not a conflict
  'skills.save': z.object({ library, skillId, text: z.string().max(5_000_000), baseHash: z.string().max(128), baseText: z.string().max(5_000_000).optional() }),
  'skills.rate': z.object({ library, skillId, rating: z.number().min(0).max(1) }),
  'skills.readFile': z.object({ library, path: z.string().min(1).max(4096) }),
  'skills.saveFile': z.object({ library, path: z.string().min(1).max(4096), text: z.string().max(5_000_000), baseHash: z.string().max(128) }),
  'skills.delete': z.object({ library, skillId }),
  'skills.restore': z.object({ library, skillId }),
  'reflect.start': z.object({
    root: z.string().min(1).max(4096),
    user: z.string().max(255).optional(),
    tasks: z.array(z.string().max(4096)).max(10_000).optional(),
    force: z.boolean().optional(),
    llm: llmChoice
  }),
  'curate.start': z.object({ library, llm: llmChoice }),
  'curate.plan': z.object({ library }),
  'curate.accept': z.object({ library, proposalId: z.string().min(1).max(200), edited: z.array(fileChange).max(100).optional() }),
  'curate.reject': z.object({ library, proposalId: z.string().min(1).max(200) }),
  /** Undoes a rejection: the proposal waits for review again (refused, `review.unreject_changed`, when its skills changed since). */
  'curate.unreject': z.object({ library, proposalId: z.string().min(1).max(200) }),
  'curate.journal': z.object({ library }),
  'curate.undo': z.object({ library, entryId: z.string().min(1).max(200) }),
  'jobs.list': z.object({}),
  'jobs.cancel': z.object({ jobId: z.string().min(1).max(200) }),
  'overview.get': z.object({ library }),
  'skills.readCode': z.object({ library, path: z.string().min(1).max(4096) }),
  'memory.status': z.object({ library }),
  'memory.setWorkspace': z.object({ library, path: folder.nullable() }),
  'memory.read': z.object({ library, name: memoryName }),
  'memory.write': z.object({ library, name: memoryName, text: z.string().max(5_000_000), baseHash: z.string().max(128).nullable() }),
  'memory.pendingPreferences': z.object({ library }),
  'memory.capturePreferences': z.object({ library }),
  'memory.acceptPreference': z.object({ library, id: z.string().min(1).max(64) }),
  'memory.rejectPreference': z.object({ library, id: z.string().min(1).max(64) }),
  'memory.consolidate': z.object({ library, llm: llmChoice, includeToday: z.boolean().optional() }),
  'memory.prompt': z.object({ library }),
  'memory.evolve': z.object({ library, lang: z.enum(['en', 'zh']).optional() }),
  'sessions.list': z.object({}),
  'sessions.add': z.object({ source: sessionSource, path: folder }),
  'sessions.remove': z.object({ source: sessionSource, path: folder }),
  'sessions.tasks': z.object({ source: sessionSource, dir: folder }),
  'sessions.readLog': z.object({
    source: sessionSource,
    dir: folder,
    taskPath: folder,
    start: z.number().int().min(0).optional(),
    at: z.number().int().min(0).optional(),
    line: z.number().int().min(1).optional(),
    end: z.number().int().min(0).optional(),
    maxBytes: z.number().int().min(1).max(4_000_000).optional()
  }),
  'sessions.searchLog': z.object({
    source: sessionSource,
    dir: folder,
    taskPath: folder,
    query: z.string().min(1).max(500),
    start: z.number().int().min(0).optional()
  }),
  'sessions.setTarget': z.object({ source: sessionSource, dir: folder, library: library.nullable() }),
  /** What agents really used of a library, from every configured source, and how those tasks ended (issue 14). */
  'usage.get': z.object({ library }),
  'sessions.reflect': z.object({
    source: sessionSource,
    dir: folder,
    /** The library the skills (and enhance proposals) go to. */
    library,
    /** Task names (`taskDir`) of the source; default: every task not yet reflected. */
    tasks: z.array(z.string().max(4096)).max(10_000).optional(),
    force: z.boolean().optional(),
    llm: llmChoice
  }),
  ...DEPLOY_INPUT_SCHEMAS,
  ...SYNC_INPUT_SCHEMAS,
  ...AUDIT_INPUT_SCHEMAS
} as const

/** What each method returns. */
export interface ApiOutputs extends DeployOutputs, SyncOutputs, AuditOutputs {
  'app.info': AppInfo
  'settings.get': PublicSettings
  'settings.update': PublicSettings
  'settings.setApiKey': PublicSettings
  'llm.test': LlmTestResult
  'roots.list': DataRootInfo[]
  'roots.add': DataRootInfo[]
  'roots.remove': DataRootInfo[]
  'tasks.list': TaskListResult
  'tasks.readLog': LogChunk
  'tasks.searchLog': LogSearchResult
  'libraries.list': LibraryInfo[]
  'libraries.open': LibraryInfo[]
  'skills.list': SkillListResult
  'skills.dismissProblems': { seenUpTo: number }
  'skills.get': SkillDocument
  'skills.query': QueryResult
  'skills.save': SkillDocument
  'skills.rate': RateResult
  'skills.readFile': SkillFileText
  'skills.saveFile': SkillFileText
  'skills.delete': { from: string; to: string }
  'skills.restore': SkillDocument
  'reflect.start': JobInfo
  'curate.start': JobInfo
  'curate.plan': CurationPlan & { library: string; computedAt: string | null }
  'curate.accept': JournalEntry
  'curate.reject': Proposal
  'curate.unreject': Proposal
  'curate.journal': JournalEntry[]
  'curate.undo': JournalEntry
  'jobs.list': JobInfo[]
  'jobs.cancel': JobInfo
  'overview.get': OverviewResult
  'skills.readCode': CodeFile
  'memory.status': MemoryStatusResult
  'memory.setWorkspace': MemoryStatusResult
  'memory.read': MemoryDocument
  'memory.write': MemoryDocument
  'memory.pendingPreferences': PendingPreferenceInfo[]
  'memory.capturePreferences': { found: number; queued: number; pending: PendingPreferenceInfo[] }
  'memory.acceptPreference': { added: boolean; pending: PendingPreferenceInfo[] }
  'memory.rejectPreference': { pending: PendingPreferenceInfo[] }
  'memory.consolidate': MemoryConsolidateResult
  'memory.prompt': MemoryPromptResult
  /** Seed 003: the data-root user's tasks → memory proposals in the review queue (counts by file). */
  'memory.evolve': { tasks: number; proposed: number; skipped: number; lessons: number; preferences: number; procedural: number }
  'sessions.list': SessionSourceInfo[]
  'sessions.add': SessionSourceInfo[]
  'sessions.remove': SessionSourceInfo[]
  'sessions.tasks': TaskListResult
  'sessions.readLog': LogChunk
  'sessions.searchLog': LogSearchResult
  'sessions.setTarget': SessionSourceInfo[]
  'sessions.reflect': JobInfo
  'usage.get': UsageReport
}

export type ApiMethod = keyof typeof API_INPUT_SCHEMAS
export type ApiInput<M extends ApiMethod> = z.infer<(typeof API_INPUT_SCHEMAS)[M]>
export type ApiOutput<M extends ApiMethod> = ApiOutputs[M]

/** Every method name, for hosts that wire them mechanically and for contract tests. */
export const API_METHODS = Object.keys(API_INPUT_SCHEMAS) as ApiMethod[]

/** The core side: one async function per method. Implemented once (`src/main/workbench.ts`). */
export type ApiHandlers = { [M in ApiMethod]: (input: ApiInput<M>) => Promise<ApiOutput<M>> }

/** What the renderer holds (`window.api` in Electron, an HTTP client in web mode). */
export interface SkillbenchApi {
  call<M extends ApiMethod>(method: M, input: ApiInput<M>): Promise<ApiOutput<M>>
  /** Subscribes to pushed events; returns the unsubscribe function. */
  onEvent(handler: (event: ApiEvent) => void): () => void
  readonly transport: 'electron' | 'web'
}

export { ApiError } from './api-error'

export type { FileChange, SkillFormat }
export type * from './api-deploy'
export type * from './api-audit'
export type * from './api-sync'
