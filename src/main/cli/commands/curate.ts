// Only light modules load with the command: curation's own (the index, the join, the plan) are imported in run(),
// after a large library's first worker has started (early-warm.ts), so that its start-up overlaps their loading.
import os from 'node:os'
import type { Proposal } from '../../../shared/types'
import type { LlmClient } from '../../llm/types'
import type { CurationSettings } from '../../curate/settings'
import { formatCleanupCoverage } from '../../curate/cleanup-evidence'
import { chunked, jsonPieces } from '../../review/json-pieces'
import { warmBeforeOpening } from '../../curate/early-warm'
import { defaultCacheDir } from '../../cache-dir'
import { releaseWarmWorkers } from '../../text/warm-workers'
import { curateProgressReporter } from '../curate-progress'
import { say, sayText } from '../lang'
import { codedFieldsOf } from '../../../shared/api-error'
import { LIBRARY_OPTIONS, parseCommandArgs, resolveLibraryDir, UsageError, type CliCommand, type CliIo } from '../common'
import { coded } from '../../../shared/error-codes'

const OPTIONS = {
  ...LIBRARY_OPTIONS,
  apply: { type: 'boolean', default: false },
  llm: { type: 'string', default: 'offline' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  'merge-threshold': { type: 'string' },
  eps: { type: 'string' },
  'cleanup-days': { type: 'string' },
  'include-edited': { type: 'boolean', default: false },
  'no-usage': { type: 'boolean', default: false }
} as const

/** The name journal records carry: --user, else the OS user. */
export function actorName(user: string | undefined): string {
  if (user) return user
  try {
    return os.userInfo().username || 'user'
  } catch {
    return 'user'
  }
}

function numberFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isFinite(n)) throw new UsageError(coded('cli.must_be_number', { option: flag }))
  return n
}

/** One proposal as a few readable lines. */
export function formatProposal(p: Proposal): string {
  const members = p.members.map((m) => `    - ${m.skill_id}  ${m.title.slice(0, 70)}  (${m.path})`)
  // The words as the skills write them (index terms are stems and Chinese character pairs); older plans have terms only.
  const words = Array.isArray(p.evidence.shared_words) && p.evidence.shared_words.length ? (p.evidence.shared_words as string[]) : p.evidence.shared_terms
  const terms = words?.length ? `\n    shared words: ${words.join(', ')}` : ''
  const files = p.changes.map((c) => `    ${c.before === null ? '+' : c.after === null ? '-' : '~'} ${c.path}`)
  const status = p.status && p.status !== 'pending' ? ` (${p.status}${p.status === 'rejected' && p.rejected ? ` ${p.rejected.at.slice(0, 10)} by ${p.rejected.by}` : ''})` : ''
  return [`[${p.id}] ${p.kind}${status}  score ${p.score}`, `    ${p.reason}${terms}`, ...members, '    files:', ...files].join('\n')
}

export const command: CliCommand = {
  name: 'curate',
  options: OPTIONS,
  usage:
    'skillbench curate --library DIR | --root-dir DIR --user U [--json] [--apply] [--llm offline|openai --base-url URL --model M]\n' +
    '                  [--merge-threshold 0.7] [--eps 0.5] [--cleanup-days 30] [--include-edited] [--no-usage]\n' +
    '  --apply              accept the proposals at once, but reviews and rejected ones (each undoable: skillbench undo ID)\n' +
    '  --merge-threshold S  similarity from which two skills are proposed as one (0 to 1, default 0.7)\n' +
    '  --eps D              cluster distance for consolidation (DBSCAN eps, default 0.5)\n' +
    '  --cleanup-days N     days without a use before a skill is proposed for cleanup (default 30)\n' +
    '  --include-edited     also propose changes to skills edited by hand after they were made (protected by default)\n' +
    '  --no-usage           do not read the agents\' logs: cleanup goes by fetch_count alone',
  async run(argv, io: CliIo) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    if (values.llm !== 'offline' && values.llm !== 'openai') throw new UsageError(coded('cli.must_be_either', { option: '--llm', a: 'offline', b: 'openai' }))
    const settings: Partial<CurationSettings> = {}
    const merge = numberFlag(values['merge-threshold'], '--merge-threshold')
    const eps = numberFlag(values.eps, '--eps')
    const days = numberFlag(values['cleanup-days'], '--cleanup-days')
    if (merge !== undefined) settings.mergeThreshold = merge
    if (eps !== undefined) settings.eps = eps
    if (days !== undefined) settings.cleanupDays = days
    if (values['include-edited']) settings.protectEdited = false
    const dir = resolveLibraryDir(values, io.cwd)
    // SKILLBENCH_CURATE_TRACE=1: every stderr line from here on says when it was written (ms since the process
    // started), for timing the command's phases from outside (the bench prints them).
    const trace = io.env.SKILLBENCH_CURATE_TRACE === '1'
    const stderr = trace ? (text: string): void => io.stderr(`[+${Math.round(performance.now())} ms] ${text}`) : io.stderr
    if (trace) stderr(`worker warmed early: ${warmBeforeOpening(dir)}\n`)
    else warmBeforeOpening(dir)
    const [{ curateLibrary, openForCuration }, { loadStems, prepareStems, saveStems, stemCacheFile }] = await Promise.all([import('../../curate/service'), import('../../curate/stem-cache')])
    let llm: LlmClient | undefined
    if (values.llm === 'openai') {
      // the SDK takes 100–250 ms to load: only where a model is used
      const { createOpenAiClient, llmConfigFromEnv } = await import('../../llm/openai-client')
      llm = createOpenAiClient(llmConfigFromEnv({ 'base-url': values['base-url'], model: values.model }, io.env))
    }

    // stems of the words earlier runs met (the cache folder, never the library): read while the library is listed
    const stemFile = stemCacheFile(defaultCacheDir(io.env))
    // opened to be curated: the join's worker threads start (and a first run's text scan runs) while it is read
    // progress per skill (seed 000): each skill read, compared, clustered and checked for cleanup (stderr)
    const progress = curateProgressReporter({ isTTY: io.isTTY, write: stderr, words: io.words })
    const [opened] = await Promise.all([openForCuration(dir, { toCurate: { cacheDir: defaultCacheDir(io.env) }, signal: io.signal, onProgress: progress }), loadStems(stemFile)])
    // what opening recovered (a change a crash interrupted) is said by the CLI's recovery listener (cli/index.ts)
    // what agents really used (the library's data root, the session folders at their usual places, the ledger)
    let usage
    if (!values['no-usage']) {
      const { openLibraryServices } = await import('../../services/library-services')
      stderr(`${sayText(io, "Reading the agents' logs for real usage...")}\n`)
      // the listing opening the library just made (listing 20,000 files again costs a stat of each)
      const list = opened.listing ?? (await opened.library.list())
      const services = await openLibraryServices(opened.root, { env: io.env })
      const collected = await services.usage({ skills: list.skills.filter((s) => !s.legacy), signal: io.signal })
      usage = collected.report
      for (const p of collected.saveProblems) stderr(`${sayText(io, p)}\n`)
      const read = coded('curate.read_usage', { tasks: usage.sources.filter((s) => s.kind !== 'ledger').reduce((n, s) => n + s.tasks, 0), sources: usage.sources.length - 1 })
      stderr(`${say(io, read)}\n`)
    }
    const plan = await curateLibrary(opened, {
      llm,
      cacheDir: defaultCacheDir(io.env),
      settings,
      usage,
      signal: io.signal,
      onProgress: progress,
      // the stems file's text is made while the join runs on workers (this thread waits then), written at the end
      whileJoining: () => prepareStems()
    })

    if (trace) stderr('plan built and saved\n')
    releaseWarmWorkers()
    await saveStems(stemFile)
    if (trace) stderr('stems saved\n')

    const applyErrors: string[] = []
    if (values.apply) {
      const by = actorName(values.user)
      for (const p of plan.proposals) {
        // a review asks a person to read the failing tasks and edit the skill: nothing to apply unattended
        if (p.kind === 'review') continue
        // a person rejected these members as they are: --apply never overrides that
        if (p.status === 'rejected') continue
        try {
          const { acceptProposal } = await import('../../review/decisions')
          await acceptProposal(opened.root, p.id, by)
          p.status = 'applied'
          stderr(`${say(io, coded('curate.applied', { id: p.id, kind: p.kind }))}\n`)
        } catch (err) {
          applyErrors.push(`${p.id}: ${(err as Error).message}`)
          stderr(`❌ ${p.id}: ${io.words ? io.words(codedFieldsOf(err), (err as Error).message) : (err as Error).message}\n`)
        }
      }
    }
    if (values.json) {
      // The same text as printJson, written in ~1 MB pieces (a large plan never becomes one string).
      for (const chunk of chunked(jsonPieces({ skills_loaded: plan.skills_loaded, proposals: plan.proposals, errors: plan.errors, ...(plan.cleanup ? { cleanup: plan.cleanup } : {}) }, 2), 1 << 20, '\n')) io.stdout(chunk)
    } else {
      if (plan.proposals.length === 0) io.stdout(`No proposals for ${plan.skills_loaded} skills.\n`)
      for (const p of plan.proposals) io.stdout(`\n${formatProposal(p)}\n`)
      for (const e of plan.errors) io.stdout(`\n⚠️  ${e.path}: ${e.reason}\n`)
      if (plan.cleanup) io.stdout(`\n${formatCleanupCoverage(plan.cleanup)}\n`)
      if (!values.apply && plan.proposals.length > 0) io.stdout('\nNothing changed. Accept with `skillbench accept ID` (or run with --apply).\n')
    }
    return applyErrors.length > 0 ? 1 : 0
  }
}
