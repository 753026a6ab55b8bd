import fs from 'node:fs'
import path from 'node:path'
import type { QueryResult } from '../../../shared/types'
import { LIBRARY_OPTIONS, parseCommandArgs, resolveLibraryDir, UsageError, type CliCommand } from '../common'
import { coded } from '../../../shared/error-codes'

const OPTIONS = {
  ...LIBRARY_OPTIONS,
  config: { type: 'string' },
  workspace: { type: 'string' },
  memory: { type: 'string' },
  'direct-edit': { type: 'boolean', default: false },
  'direct-delete': { type: 'boolean', default: false },
  'ignore-settings': { type: 'boolean', default: false },
  'print-prompt': { type: 'boolean', default: false },
  'print-config': { type: 'string' },
  'print-tools': { type: 'string' },
  lang: { type: 'string' }
} as const

const USAGE = `skillbench mcp (--library DIR | --root-dir DIR --user NAME) [options]
       skillbench mcp --print-prompt [--lang en|zh]
       skillbench mcp --print-tools openai|memory-tools
       skillbench mcp --print-config claude|mcp-json|codex|cursor (--library DIR | --root-dir DIR --user NAME) [options]

Runs a Model Context Protocol server on stdin/stdout (for Claude Code, Codex, Cursor… see docs/MCP.md).
Tools: query_skill, rate_skill, edit_skill, delete_skill, copy_skill_files, add_lesson, record_preference.
Resources: skill://<skill_id>.
Prompt: skill-tools-guide. Logs go to stderr; stdout carries only the protocol.

Options:
  --library DIR          the skill library (an experience folder or a SKILL.md tree)
  --root-dir DIR --user NAME
                         an AGIAgent data root: the library is DIR/NAME/general/experience, and
                         DIR/config.txt (or DIR/config/config.txt) may set enable_long_term_memory
  --config FILE          a config.txt to read enable_long_term_memory from (with --library too);
                         when it is False every skill tool answers "Skill tools are only available
                         when long-term memory is enabled"
  --workspace DIR        the agent workspace copy_skill_files copies from (default: the current folder)
  --memory DIR           the folder holding memory/ (lessons.md, preferences.md…) for add_lesson and
                         record_preference (default: DIR/NAME with --root-dir, else the library's memory
                         folder chosen in the app's settings)
  --direct-edit          edit_skill changes the file at once (default: it makes a pending proposal
                         that waits for review in the app, in <library>/.skillbench/pending/); the memory
                         tools follow the same switch (a memory proposal in the review queue, or written at once)
  --direct-delete        delete_skill moves the skill to legacy/ at once (default: a pending proposal)
  --ignore-settings      do not read the workbench settings ($SKILLBENCH_CONFIG_DIR or ~/.config/skillbench/
                         settings.json); by default its enableLongTermMemory=false turns the tools off and its
                         proposalOnlyTools {edit,delete}=false makes that tool act directly
  --print-prompt         print the system-prompt snippet telling an agent how to use the tools, and exit
  --lang en|zh           language of --print-prompt (default en)
  --print-tools openai|memory-tools
                         print the five tool schemas and exit: the OpenAI \`tools\` array, or AGIAgent's
                         prompts/memory_tools.json dictionary (merge it into that file's object)
  --print-config CLIENT  print the lines that register this server (with the same options, absolute
                         paths) in Claude Code (claude), a project .mcp.json (mcp-json), Codex
                         (~/.codex/config.toml) or Cursor (.cursor/mcp.json), and exit`

/** How long the server waits for a client's first message before opening the index (a few event-loop turns). */
const FIRST_INPUT_WAIT_MS = 20

/** The library folder's real path (what the store and the index are keyed by), or undefined when it is missing. */
function realLibraryRoot(dir: string): string | undefined {
  try {
    return fs.realpathSync(dir)
  } catch {
    return undefined
  }
}

/**
 * The library's search daemon as this MCP server uses it: whether one answers now, and a query asker (null: the
 * query is answered in process). Off with SKILLBENCH_SEARCH_SERVER=off; not where there is no socket path.
 */
async function searchDaemonFor(root: string, env: NodeJS.ProcessEnv): Promise<{ up: boolean; socket: string; ask: (query: string) => Promise<QueryResult | null> } | undefined> {
  const { searchDaemonMode, searchDaemonSocket } = await import('../../search/daemon/address')
  const socket = searchDaemonMode(env) === 'off' ? null : searchDaemonSocket(root, env)
  if (!socket) return undefined
  const { askSearchDaemonForResult, daemonAnswers, untrustedSocket } = await import('../../search/daemon/client')
  const ask = async (query: string): Promise<QueryResult | null> => {
    const r = await askSearchDaemonForResult(socket, { root, text: query, top: 3, touch: true, via: 'mcp' })
    return isQueryResult(r) ? r : null
  }
  return { up: untrustedSocket(socket) === null && (await daemonAnswers(socket)), socket, ask }
}

/** A query answer as the server sends it (anything else: answered here). */
function isQueryResult(v: unknown): v is QueryResult {
  return typeof v === 'object' && v !== null && ((v as QueryResult).status === 'success' || (v as QueryResult).status === 'error') && typeof (v as QueryResult).message === 'string'
}

/** `node <this CLI> mcp …` with absolute paths, as a client would start this same server. */
function serverLaunch(
  values: {
    config?: string
    workspace?: string
    memory?: string
    'direct-edit'?: boolean
    'direct-delete'?: boolean
    'ignore-settings'?: boolean
    library?: string
    'root-dir'?: string
    user?: string
  },
  libraryDir: string,
  cwd: string
): { command: string; args: string[] } {
  const bin = path.resolve(process.argv[1] ?? path.join(cwd, 'bin', 'skillbench.cjs'))
  const args = [bin, 'mcp']
  if (values.library) {
    args.push('--library', libraryDir)
  } else {
    args.push('--root-dir', path.resolve(cwd, values['root-dir'] ?? '.'), '--user', values.user ?? '')
  }
  if (values.config) args.push('--config', path.resolve(cwd, values.config))
  if (values.workspace) args.push('--workspace', path.resolve(cwd, values.workspace))
  if (values.memory) args.push('--memory', path.resolve(cwd, values.memory))
  if (values['direct-edit']) args.push('--direct-edit')
  if (values['direct-delete']) args.push('--direct-delete')
  if (values['ignore-settings']) args.push('--ignore-settings')
  return { command: 'node', args }
}

export const command: CliCommand = {
  name: 'mcp',
  options: OPTIONS,
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    if (values['print-tools'] !== undefined) {
      const { memoryToolsDictionary, SKILL_TOOL_SCHEMAS } = await import('../../tools/schemas')
      const kind = values['print-tools']
      if (kind !== 'openai' && kind !== 'memory-tools') throw new UsageError(coded('cli.must_be_either', { option: '--print-tools', a: 'openai', b: 'memory-tools' }))
      io.stdout(JSON.stringify(kind === 'openai' ? SKILL_TOOL_SCHEMAS : memoryToolsDictionary(), null, 2) + '\n')
      return 0
    }
    if (values['print-prompt']) {
      const lang = values.lang ?? 'en'
      if (lang !== 'en' && lang !== 'zh') {
        throw new UsageError(coded('cli.must_be_either', { option: '--lang', a: 'en', b: 'zh' }))
      }
      const { skillToolsPrompt } = await import('../../mcp/prompt-snippet')
      io.stdout(skillToolsPrompt(lang))
      return 0
    }
    if (values.lang !== undefined) {
      throw new UsageError(coded('cli.lang_with_print_prompt'))
    }
    const dir = resolveLibraryDir(values, io.cwd)
    if (values['print-config'] !== undefined) {
      const { clientConfigSnippet, MCP_CLIENTS } = await import('../../mcp/client-config')
      const kind = values['print-config'] as (typeof MCP_CLIENTS)[number]
      if (!MCP_CLIENTS.includes(kind)) {
        throw new UsageError(coded('cli.takes_one_of', { option: '--print-config', choices: MCP_CLIENTS.join(', ') }))
      }
      io.stdout(clientConfigSnippet(kind, serverLaunch(values, dir, io.cwd)))
      return 0
    }
    // Start-up order (docs/ARCHITECTURE.md, "The MCP server's start-up"): read stdin and answer `initialize`
    // at once, open the search index next, answer the first queries from it; the MCP SDK (~200 ms of modules)
    // loads only when a message needs it or when idle.
    const log = (line: string): void => io.stderr(`[skillbench mcp] ${line}\n`)
    const [{ startStdioFront }, { guardLines }, { SKILL_TOOL_NAMES }, { MEMORY_TOOL_NAMES }] = await Promise.all([import('../../mcp/stdio-front'), import('../../mcp/line-guard'), import('../../tools/schemas'), import('../../mcp/memory-tool-names')])
    // every line is checked first: what no server could answer gets a JSON-RPC error here, and the server stays up
    const stdin = guardLines(process.stdin, { toolNames: [...SKILL_TOOL_NAMES, ...MEMORY_TOOL_NAMES], reply: (msg) => void process.stdout.write(JSON.stringify(msg) + '\n'), log })
    const front = startStdioFront({ stdin, stdout: process.stdout, log })
    io.signal.addEventListener('abort', () => front.close(), { once: true })
    // A client writes initialize as soon as it has started us: it is answered before the index's synchronous work
    // (loading the saved file, the stats) holds the thread. Reading a pipe takes a few turns of the event loop;
    // a client that says nothing at once is not waited for.
    await Promise.race([front.firstInput, new Promise((resolve) => setTimeout(resolve, FIRST_INPUT_WAIT_MS))])
    // The index first (its walk and stats are most of the first query's wait), then the rest of the server.
    // The library's services (store, index, tools) from the one composition (services/library-services.ts).
    // Every write of its store (a tool's, a query's uses) finishes a change a crash interrupted first.
    const [{ openLibraryServices }, { recoverFirst }] = await Promise.all([import('../../services/library-services'), import('../../review/recover-first')])
    const root = realLibraryRoot(dir)
    const services = await openLibraryServices(root ?? dir, { env: io.env, via: 'mcp', keep: true, recover: recoverFirst })
    const search = services.search!
    // A search daemon of this library (started by a query of a large library) answers the queries: this process
    // then neither loads the index nor holds it. Otherwise the index opens now, and for a large library a server is
    // started in the background for the next sessions and CLI calls.
    const remote = root === undefined ? undefined : await searchDaemonFor(root, io.env)
    const opened = remote?.up ? Promise.resolve() : root === undefined ? undefined : services.index()
    opened?.catch(() => undefined) // a failure is the first query's to report
    if (remote && !remote.up) {
      void opened?.then(async () => {
        const index = search.peek()
        const { startDaemonAfterAnswer } = await import('../daemon-answer')
        if (index && (await startDaemonAfterAnswer(io, root!, remote.socket, index.activeCount))) log('search daemon started for this library')
      }).catch(() => undefined) // an index that failed to open is the first query's to report: never an unhandled rejection (it ended the server with a stack trace)
    }
    try {
      const [{ combinedAvailability, readAppSettings }, { createToolAnswerer }] = await Promise.all([import('../../mcp/availability'), import('../../mcp/tool-answers')])
      // Lazily: the first query is answered from the persistent search index, not by reading every skill file.
      const store = await services.library()
      if (!opened) throw new Error(`library folder not found: ${dir}`) // the store found it: not reached
      const app = values['ignore-settings'] ? undefined : await readAppSettings(io.env)
      const availability = await combinedAvailability({
        rootDir: values.library ? undefined : path.resolve(io.cwd, values['root-dir'] ?? '.'),
        configFile: values.config ? path.resolve(io.cwd, values.config) : undefined,
        settings: app
      })
      const fromSettings = app?.settings.proposalOnlyTools ?? { edit: true, delete: true }
      const proposalOnly = { edit: fromSettings.edit && !values['direct-edit'], delete: fromSettings.delete && !values['direct-delete'] }
      log(
        `serving ${store.root} over stdio; skill tools ${availability.available ? 'available' : 'DISABLED (long-term memory is off)'} (${availability.source}); ` +
          `edit: ${proposalOnly.edit ? 'proposals' : 'direct'}, delete: ${proposalOnly.delete ? 'proposals' : 'direct'}`
      )
      const workspaceRoot = path.resolve(io.cwd, values.workspace ?? '.')
      const remoteQuery = remote?.ask
      front.answerQueries(createToolAnswerer({ store, search, available: availability.available, proposalOnly, workspaceRoot, log, remoteQuery }), opened)
      if (await front.sdkWanted) {
        const { serveStdio } = await import('../../mcp/server')
        const handed = front.handOver()
        const memoryWorkspace = await memoryWorkspaceFor(values, store.root, app?.file, io.cwd)
        await serveStdio({ store, search, availability, proposalOnly, workspaceRoot, memoryWorkspace, log, remoteQuery, signal: io.signal, stdin: handed.stdin, answered: handed.answered, onListening: handed.start })
      }
      await front.drained()
      // the last queries' uses reach the skill files before the process goes (they are safe in the ledger anyway)
      await store.settleUsage().catch((err: Error) => log(`usage not folded yet: ${err.message}`))
    } finally {
      front.close()
      services.close()
    }
    log('client disconnected')
    return 0
  }
}

/**
 * The workspace holding memory/ for the memory tools: --memory, else the data-root user's folder, else the memory
 * folder the app's settings chose for this library; undefined when none says (the tools then say how to set it).
 */
async function memoryWorkspaceFor(values: { memory?: string; 'root-dir'?: string; user?: string; library?: string }, libraryRoot: string, settingsFile: string | undefined, cwd: string): Promise<string | undefined> {
  if (values.memory) return path.resolve(cwd, values.memory)
  if (!values.library && values['root-dir'] && values.user) return path.resolve(cwd, values['root-dir'], values.user)
  if (!settingsFile) return undefined
  try {
    const chosen = (JSON.parse(await fs.promises.readFile(settingsFile, 'utf8')) as { memoryWorkspaces?: Record<string, unknown> }).memoryWorkspaces?.[libraryRoot]
    return typeof chosen === 'string' && path.isAbsolute(chosen) ? chosen : undefined
  } catch {
    return undefined
  }
}
