import path from 'node:path'
import { LIBRARY_OPTIONS, parseCommandArgs, resolveLibraryDir, UsageError, type CliCommand } from '../common'

const OPTIONS = {
  ...LIBRARY_OPTIONS,
  config: { type: 'string' },
  workspace: { type: 'string' },
  'direct-edit': { type: 'boolean', default: false },
  'direct-delete': { type: 'boolean', default: false },
  'ignore-settings': { type: 'boolean', default: false },
  'print-prompt': { type: 'boolean', default: false },
  'print-config': { type: 'string' },
  lang: { type: 'string' }
} as const

const USAGE = `skillbench mcp (--library DIR | --root-dir DIR --user NAME) [options]
       skillbench mcp --print-prompt [--lang en|zh]
       skillbench mcp --print-config claude|mcp-json|codex|cursor (--library DIR | --root-dir DIR --user NAME) [options]

Runs a Model Context Protocol server on stdin/stdout (for Claude Code, Codex, Cursor… see docs/MCP.md).
Tools: query_skill, rate_skill, edit_skill, delete_skill, copy_skill_files. Resources: skill://<skill_id>.
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
  --direct-edit          edit_skill changes the file at once (default: it makes a pending proposal
                         that waits for review in the app, in <library>/.skillbench/pending/)
  --direct-delete        delete_skill moves the skill to legacy/ at once (default: a pending proposal)
  --ignore-settings      do not read the workbench settings ($SKILLBENCH_CONFIG_DIR or ~/.config/skillbench/
                         settings.json); by default its enableLongTermMemory=false turns the tools off and its
                         proposalOnlyTools {edit,delete}=false makes that tool act directly
  --print-prompt         print the system-prompt snippet telling an agent how to use the tools, and exit
  --lang en|zh           language of --print-prompt (default en)
  --print-config CLIENT  print the lines that register this server (with the same options, absolute
                         paths) in Claude Code (claude), a project .mcp.json (mcp-json), Codex
                         (~/.codex/config.toml) or Cursor (.cursor/mcp.json), and exit`

/** `node <this CLI> mcp …` with absolute paths, as a client would start this same server. */
function serverLaunch(
  values: {
    config?: string
    workspace?: string
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
  const bin = path.resolve(process.argv[1] ?? path.join(cwd, 'bin', 'skillbench.mjs'))
  const args = [bin, 'mcp']
  if (values.library) {
    args.push('--library', libraryDir)
  } else {
    args.push('--root-dir', path.resolve(cwd, values['root-dir'] ?? '.'), '--user', values.user ?? '')
  }
  if (values.config) args.push('--config', path.resolve(cwd, values.config))
  if (values.workspace) args.push('--workspace', path.resolve(cwd, values.workspace))
  if (values['direct-edit']) args.push('--direct-edit')
  if (values['direct-delete']) args.push('--direct-delete')
  if (values['ignore-settings']) args.push('--ignore-settings')
  return { command: 'node', args }
}

export const command: CliCommand = {
  name: 'mcp',
  usage: USAGE,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, OPTIONS, false)
    if (values['print-prompt']) {
      const lang = values.lang ?? 'en'
      if (lang !== 'en' && lang !== 'zh') {
        throw new UsageError('--lang must be en or zh')
      }
      const { skillToolsPrompt } = await import('../../mcp/prompt-snippet')
      io.stdout(skillToolsPrompt(lang))
      return 0
    }
    if (values.lang !== undefined) {
      throw new UsageError('--lang goes with --print-prompt')
    }
    const dir = resolveLibraryDir(values, io.cwd)
    if (values['print-config'] !== undefined) {
      const { clientConfigSnippet, MCP_CLIENTS } = await import('../../mcp/client-config')
      const kind = values['print-config'] as (typeof MCP_CLIENTS)[number]
      if (!MCP_CLIENTS.includes(kind)) {
        throw new UsageError(`--print-config takes one of ${MCP_CLIENTS.join(', ')}`)
      }
      io.stdout(clientConfigSnippet(kind, serverLaunch(values, dir, io.cwd)))
      return 0
    }
    const [{ openLibrary }, { combinedAvailability, readAppSettings }, { serveStdio }, { LibrarySearch }] = await Promise.all([
      import('../../store/library'),
      import('../../mcp/availability'),
      import('../../mcp/server'),
      import('../../search/library-search')
    ])
    const app = values['ignore-settings'] ? undefined : await readAppSettings(io.env)
    const availability = await combinedAvailability({
      rootDir: values.library ? undefined : path.resolve(io.cwd, values['root-dir'] ?? '.'),
      configFile: values.config ? path.resolve(io.cwd, values.config) : undefined,
      settings: app
    })
    // Lazily: the first query is answered from the persistent search index, not by reading every skill file.
    const late: { search?: InstanceType<typeof LibrarySearch> } = {}
    const store = await openLibrary(dir, { lazy: true, locate: (id) => late.search?.peek()?.pathOf(id) })
    const search = (late.search = new LibrarySearch(store.root, { env: io.env }))
    // Warmed while the client connects, so the first query_skill finds it ready.
    void search.current().catch(() => undefined)
    const fromSettings = app?.settings.proposalOnlyTools ?? { edit: true, delete: true }
    const proposalOnly = { edit: fromSettings.edit && !values['direct-edit'], delete: fromSettings.delete && !values['direct-delete'] }
    const log = (line: string): void => io.stderr(`[skillbench mcp] ${line}\n`)
    log(
      `serving ${store.root} over stdio; skill tools ${availability.available ? 'available' : 'DISABLED (long-term memory is off)'} (${availability.source}); ` +
        `edit: ${proposalOnly.edit ? 'proposals' : 'direct'}, delete: ${proposalOnly.delete ? 'proposals' : 'direct'}`
    )
    await serveStdio({
      store,
      search,
      availability,
      proposalOnly,
      workspaceRoot: path.resolve(io.cwd, values.workspace ?? '.'),
      log,
      signal: io.signal
    })
    search.close()
    log('client disconnected')
    return 0
  }
}
