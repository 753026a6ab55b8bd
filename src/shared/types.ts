/**
 * Domain types shared by every layer (store, scanner, tools, CLI, server, renderer).
 *
 * This file imports nothing but the message codes' types: it is the vocabulary of the API contract.
 */
import type { MessageCode, MessageParams } from './error-codes'

/** How a skill is stored on disk. */
export type SkillFormat = 'agiagent' | 'skill-md'

/**
 * The bookkeeping fields of a skill, as the AGIAgent front matter holds them.
 * For SKILL.md folders the same fields live under `metadata.skillbench` (never top level).
 */
/** The quality a skill has before anyone rated it, and the one read when its file holds none. */
export const DEFAULT_QUALITY_INDEX = 0.5

export interface SkillMeta {
  /** Unix-timestamp digits, always a string. */
  skill_id: string
  title: string
  usage_conditions: string
  /** 0–1; new skills start at 0.5. */
  quality_index: number
  fetch_count: number
  /** Comma-separated `codes/task_…/file` paths, '' when none. */
  related_code: string
  /** Basenames of the task folders (`output_…`) the skill was made from. */
  task_directories: string[]
  /** ISO-8601 strings. */
  created_at: string
  updated_at: string
  last_used_at: string | null
  user_preferences: string
  /** Protected from curation. */
  pinned?: boolean
}

/** One skill as loaded from a library. */
export interface Skill extends SkillMeta {
  format: SkillFormat
  /** Path relative to the library root, with forward slashes. */
  path: string
  /** The Markdown body after the front matter. */
  body: string
  /** sha256 (hex) of the file's bytes when it was read: the base for conflict detection. */
  hash: string
  /** True when the skill lives under `legacy/`. */
  legacy: boolean
  /** SKILL.md only: the `name` front-matter field. */
  name?: string
  /** SKILL.md only: the `description` front-matter field. */
  description?: string
  /** True when the file was edited by hand after creation (updated_at differs from created_at by a user edit). */
  edited_by_hand?: boolean
  /**
   * True when the front matter holds no creation date and `created_at`/`updated_at` are the file's modification
   * time (a SKILL.md without `metadata.skillbench`): not evidence of when the skill arrived in the library.
   */
  dated_by_file?: boolean
  /**
   * Front-matter values that were read with a default (or as written) because they are missing or not what the
   * field holds (`quality_index: high`): each in English as `reason`, by code beside it. `skillbench validate`
   * names the same ones as warnings (store/skill-field-checks.ts). Absent when there are none.
   */
  load_warnings?: LoadWarning[]
}

/** A value of a skill file read with a default: why, in English, and by code (shared/error-codes.ts). */
export interface LoadWarning {
  reason: string
  messageCode: MessageCode
  params: MessageParams
}

/** A file that could not be loaded: reported, skipped, never rewritten. */
export interface LoadError {
  path: string
  /** Why, in English (the CLI prints it; older caches hold only this). */
  reason: string
  /**
   * `unreadable`: a skill file that could not be loaded (default when absent); `skipped`: an entry the listing
   * passed over on purpose (a link, a special file, a folder named like a skill file); `duplicate_id`: a skill
   * whose id another active skill also has (changes by that id are refused until one is renumbered).
   */
  kind?: 'unreadable' | 'skipped' | 'duplicate_id'
  /** The same reason by code (shared/error-codes.ts), so a screen words it in its language. */
  messageCode?: MessageCode
  params?: MessageParams
}

/** Result of listing a library. */
export interface SkillList {
  skills: Skill[]
  errors: LoadError[]
}

/** One tool call seen in a log, attributed to the agent that made it. */
export interface ToolCall {
  /** `manager` or the sub-agent id (`agent_001`…), or the session's agent name. */
  agent: string
  name: string
  params: Record<string, string>
  /** Set by session adapters when the call's result is known. */
  ok?: boolean
  /** The call was cut off (an `<invoke>` with no `</invoke>`). */
  partial?: boolean
  /** Where the call is in the raw log: the log file's name, and its byte offset (AGIAgent) or 1-based line (JSONL sessions). */
  file?: string
  offset?: number
  line?: number
}

/** A multi-agent message or spawn event. */
export interface AgentMessage {
  /** `said`: the agent's own 💬 chat line (not a multi-agent event). */
  kind: 'sent' | 'routed' | 'read' | 'spawn_completed' | 'said'
  from?: string
  to?: string
  id?: string
  count?: number
  text: string
  /** The agent whose log holds the line (`manager`, `agent_001`…). */
  agent?: string
}

export type TaskStatus = 'completed' | 'interrupted' | 'incomplete'

/** Where a task trace came from. */
export type TraceSource = 'agiagent' | 'claude' | 'codex' | 'synapse'

/** A finished (or unfinished) agent task, parsed from its logs. Every adapter produces this shape. */
export interface TaskTrace {
  source?: TraceSource
  /** The user folder (`<root>/<user>/output_*`), '' for tasks directly under the root. */
  user: string
  /** Basename of the task folder (`output_…`) or a session-derived task name. */
  taskDir: string
  /** Absolute path of the task folder (or session file). */
  path: string
  /** Modification time, ms since epoch. */
  mtime: number
  /**
   * When the task started, ms since epoch, from the task itself: the `output_YYYYMMDD_HHMMSS` folder name, or
   * the first timestamp of a session's request. Absent when the task does not say (then `mtime` is all there is).
   */
  startedAt?: number
  status: TaskStatus
  completed: boolean
  requirements: string[]
  toolCalls: ToolCall[]
  /** How many tool calls the logs hold when more than `toolCalls` keeps (the parser keeps the first 20,000 per log). */
  toolCallsTotal?: number
  errors: string[]
  interruptions: number
  agentMessages: AgentMessage[]
  /** Workspace-relative paths the task created or edited. */
  files: string[]
  /** Explicit user preferences stated in the log ("记住：…", "remember: …"). */
  preferences?: string[]
  /** The final answer / last assistant text, when known (cut short). */
  finalText?: string
  /** Requests the sub-agents received (from their own `agent_*.out`), kept with their agent. */
  agentRequirements?: Record<string, string[]>
  /** Skills the session used (Claude Code `invoked_skills`, skill files read). */
  skillsUsed?: string[]
  /**
   * Every use of a skill the task's own actions show (issue 14), as the log names it: matched to a library's
   * skills later, by name, path or id. Never taken from text the agent was merely shown (a skills list in a
   * system prompt, a search result listing SKILL.md files).
   */
  skillRefs?: SkillRef[]
  /** The user's next request when it says this task's result was wrong ("that's wrong", "不对…"), cut short. */
  correctedBy?: string
}

/** How an agent used a skill. */
export type SkillUseKind = 'skill-tool' | 'invoked' | 'read' | 'query' | 'load'

/** One use of a skill in a task, as the log says it. */
export interface SkillRef {
  /**
   * `skill-tool`: Claude Code's `Skill` tool; `invoked`: an `invoked_skills` attachment (a slash command);
   * `read`: the agent read a skill file (Read tool, `cat`, `sed -n`, a shell read); `query`: a `query_skill` call
   * returned it; `load`: `skill:load <name>`.
   */
  kind: SkillUseKind
  /** The skill's name: the Skill tool's argument, the attachment's name, `skill:load NAME`, or NAME of `…/skills/NAME/SKILL.md`. */
  name?: string
  /** The skill file read, as the log wrote it. */
  path?: string
  /** The ids a `query_skill` call returned. */
  ids?: string[]
  /** When, ms since epoch (sessions; an AGIAgent task gives only its start). */
  at?: number
  /** Errors the task met after this use (its own call failing is no use at all, and is not counted). */
  errorsAfter: number
  /** Where it is in the raw log: the agent's log and byte offset (AGIAgent), or the 1-based line (sessions). */
  agent?: string
  offset?: number
  line?: number
}

/** A task folder (or session file) that was found but not parsed: why in words, and by code beside them. */
export interface SkippedTask {
  path: string
  reason: string
  /** The reason's code (error-codes.ts `scan.*`); absent in what an older version wrote. */
  messageCode?: MessageCode
  params?: MessageParams
}

/** `skillbench scan --json` output. */
export interface ScanResult {
  root: string
  tasks: TaskTrace[]
  skipped: SkippedTask[]
}

/** One skill in a `query_skill` answer. */
export interface QueriedSkill extends SkillMeta {
  similarity_score: number
  content: string
  path: string
  format: SkillFormat
}

/** The `query_skill` answer, same shape as upstream. */
export interface QueryResult {
  status: 'success' | 'error'
  message: string
  skills_count: number
  skills: QueriedSkill[]
  /** The message by code (a code of shared/error-codes.ts and its params), beside the English `message`. */
  message_code?: string
  params?: Record<string, unknown>
  /**
   * Only when a use was asked for (touch) and could not be recorded because the library is read-only for this
   * user: false, and `use_notice` says so (the skills are the answer all the same; fetch_count is as on disk).
   */
  use_recorded?: false
  /** Why the use was not recorded, by code (tool.use_not_counted_read_only) beside the English. */
  use_notice?: { message: string; message_code: string; params: Record<string, unknown> }
}

/** Answer of the write tools (rate, edit, delete, copy files). */
export interface ToolResult {
  status: 'success' | 'error'
  message: string
  [key: string]: unknown
}

/**
 * `update`: a skill installed from git changed upstream (`skillbench update`); `learned`: an agent (or a person)
 * edited a deployed copy and the change is offered back to the library (`skillbench deploy`); `review`: a skill whose
 * tasks went wrong more often than the baseline, with the failing tasks as evidence (issue 14).
 */
export type ProposalKind = 'merge' | 'consolidate' | 'cleanup' | 'enhance' | 'edit' | 'delete' | 'update' | 'learned' | 'review' | 'memory'

/** One file a proposal touches: exact text before and after (null = file absent). */
export interface FileChange {
  /** Library-relative path. */
  path: string
  before: string | null
  after: string | null
}

export interface ProposalMember {
  skill_id: string
  title: string
  path: string
}

/** A reviewable change to the library. Nothing changes until it is accepted. */
export interface Proposal {
  id: string
  kind: ProposalKind
  members: ProposalMember[]
  score: number
  /** Why it is proposed, in English (the CLI, `--json`, MCP and older clients read it). */
  reason: string
  /** `reason` by code, when its producer coded it (update.reason*, deploy.learned_reason*, sync.reason_*, review.agent_*): a screen words it so. */
  messageCode?: MessageCode
  params?: MessageParams
  evidence: { shared_terms?: string[]; similarity?: number; [key: string]: unknown }
  changes: FileChange[]
  status?: 'pending' | 'applied' | 'rejected' | 'undone'
  /** user / offline / the model name. */
  author?: string
  /**
   * The members and their content (kind, each skill's id and file hash; no paths): a rejection holds for every later
   * proposal with this fingerprint, until one of its skills changes (issue 36). Curation kinds only.
   */
  fingerprint?: string
  /** When a person rejected it (this proposal or an earlier one with the same fingerprint), and who. */
  rejected?: { at: string; by: string }
}

/** A skill curation leaves alone, and why: `pinned: true`, or edited by a person after it was made. */
export interface ProtectedSkill {
  skill_id: string
  title: string
  path: string
  reason: 'pinned' | 'edited'
}

/** `skillbench curate --json` output. */
export interface CurationPlan {
  skills_loaded: number
  proposals: Proposal[]
  errors: LoadError[]
  /** Skills left out of every proposal because they are protected. */
  protected?: ProtectedSkill[]
  /** What observed the library's use, and why skills were not judged for cleanup (issue 36). */
  cleanup?: CleanupCoverage
}

/** One source that watched the library's skills being used, and over which days (issue 36). */
export interface ObservedSource {
  /**
   * `fetch_count`: the library's agents keep fetch_count through query_skill (AGIAgent; seen from a skill with a
   * use recorded in its file), watching each skill since it was made; `ledger`: Skillbench's recorded queries;
   * else agents' logs of that kind, watching from their first task that used one of this library's skills.
   */
  kind: 'fetch_count' | 'ledger' | UsageSourceKind
  dir: string
  /** First day watched (ISO); for `fetch_count`, each skill's own created_at (this field: the earliest). */
  from: string
  /** Uses of the library's skills this source recorded. */
  uses: number
}

/** Cleanup's evidence for a whole plan: a skill is judged only over days something watched it (issue 36). */
export interface CleanupCoverage {
  sources: ObservedSource[]
  /** Days of watching a skill needs, since it arrived, before it can be called unused (`cleanupDays`). */
  days: number
  /** Skills judged (watched long enough since they arrived), and those left unjudged by why. */
  judged: number
  not_judged: { arrival_unknown: number; not_observed: number; too_short: number }
}

/** One applied change in the library journal (`.skillbench/journal`). */
export interface JournalEntry {
  id: string
  proposal_id: string
  /** `deploy`: skills written into an agent's folder (undo puts the folder back as it was). */
  kind: ProposalKind | 'deploy'
  at: string
  by: string
  changes: FileChange[]
  undone_at?: string
}

/** Settings shared by every host. */
export interface Settings {
  dataRoots: string[]
  llm: {
    provider: 'offline' | 'openai'
    baseUrl: string
    model: string
    /** Never sent to the renderer: it sees `hasApiKey` / a masked value. */
    apiKey?: string
    temperature: number
    timeoutMs: number
    concurrency: number
  }
  thresholds: {
    merge: number
    eps: number
    minSamples: number
    cleanupDays: number
  }
  reflectBudgetChars: number
  maxEnhanceContextChars: number
  enableLongTermMemory: boolean
  autoEnhance: boolean
  proposalOnlyTools: { edit: boolean; delete: boolean }
  language: 'en' | 'zh'
}

export const DEFAULT_SETTINGS: Settings = {
  dataRoots: [],
  llm: {
    provider: 'offline',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    temperature: 0.3,
    timeoutMs: 60_000,
    concurrency: 4
  },
  thresholds: { merge: 0.7, eps: 0.5, minSamples: 2, cleanupDays: 30 },
  reflectBudgetChars: 24_000,
  maxEnhanceContextChars: 20_000,
  enableLongTermMemory: true,
  autoEnhance: false,
  proposalOnlyTools: { edit: true, delete: true },
  language: 'en'
}

// ---------- usage (issue 14) ----------

/** How a task that used a skill ended. `incomplete`: no completion, no error after the use, not stopped. */
export type TaskOutcome = 'completed' | 'failed' | 'interrupted' | 'corrected' | 'incomplete'

/** Where a use was seen: an agent's logs, or a query through Skillbench itself (its ledger: `mcp`, `cli`…). */
export type UsageSourceKind = TraceSource | 'mcp' | 'cli' | 'skillbench'

/** One task (or one recorded query) that used a skill. */
export interface SkillUseTask {
  source: UsageSourceKind
  /** The task's name (`output_…`, `<session>#n`); null for a query Skillbench recorded outside any scanned task. */
  task: string | null
  /** ISO time of the use (or of the task's start when the log gives no time). */
  at: string
  /** null for a recorded query (no task to judge). */
  outcome: TaskOutcome | null
  /** How the skill was used in it. */
  how: SkillUseKind[]
  /** The task folder or session file, to open its trace. */
  path?: string
  user?: string
  /** The folder it was scanned from: a data root or a session folder. */
  origin?: string
  /** The first error after the use (failed tasks), cut short. */
  error?: string
  /** The follow-up request that said it was wrong (corrected tasks), cut short. */
  correction?: string
}

/** Outcomes of tasks that used no skill of the library (same sources, same period): what "normal" looks like. */
export interface UsageBaseline {
  tasks: number
  completed: number
  failed: number
  interrupted: number
  /** Not in the CLI's JSON shape (the issue fixes it); used for the "went wrong" comparison. */
  corrected: number
}

/**
 * What the evidence says about a skill: `unused` (no use in the period), `too-few` (fewer uses than it takes to
 * tell), `no-baseline` (too few tasks without it to compare), `fails-more` (its tasks went wrong clearly more
 * often than the baseline), `as-baseline` (not worse).
 */
export type UsageVerdict = 'unused' | 'too-few' | 'no-baseline' | 'fails-more' | 'as-baseline'

export interface SkillUsage {
  skill_id: string
  name: string
  title: string
  path: string
  /** Tasks that used it plus recorded queries outside any scanned task. */
  uses: number
  completed: number
  failed: number
  interrupted: number
  corrected: number
  incomplete: number
  last_used_at: string | null
  tasks: SkillUseTask[]
  /** Tasks without any skill of the library from the same sources as its uses, in the same period. */
  baseline: UsageBaseline
  verdict: UsageVerdict
}

export interface UsageReport {
  skills: SkillUsage[]
  /** Every scanned task that used no skill of the library, in the period. */
  baseline: UsageBaseline
  /** The period's start (ISO), null = everything scanned. */
  since: string | null
  generatedAt: string
  /** What was scanned: each folder with its task count (`ledger`: the library's recorded queries). */
  sources: { kind: UsageSourceKind | 'ledger'; dir: string; tasks: number }[]
  /** Folders or files that could not be read, and why. */
  problems: string[]
  /** The thresholds the verdicts used. */
  rules: { minUses: number; minBaseline: number; margin: number }
}
