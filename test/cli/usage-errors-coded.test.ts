/**
 * A command's own checks of its arguments and options (issue 40 point 4): each bad usage carries its own code, not the
 * catch-all cli.usage with English words inside, so `--json` answers with a message_code a script or the app words in
 * Chinese. The English on stderr is the words the commands said before they had codes, byte for byte (scripts read
 * it). Through the CLI's own entry; commands without --json (hooks, serve, reflect --hook) by their stderr and the
 * UsageError they throw. The last test keeps it so: no plain-words UsageError in src/main/cli.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../formats/helpers'
import { copyTree, FIXTURE_LIBRARY } from '../store/helpers'
import { MESSAGE_TEMPLATES, type MessageCode, type MessageParams } from '../../src/shared/error-codes'
import { translateMessage } from '../../src/renderer/i18n/messages-errors'
import { UsageError, type CliIo } from '../../src/main/cli/common'

let lib: string
let ws: string

beforeAll(() => {
  lib = copyTree(FIXTURE_LIBRARY)
  ws = fs.mkdtempSync(path.join(os.tmpdir(), 'skillbench-usage-'))
  fs.writeFileSync(path.join(ws, 'notes.json'), '{"hello": 1}')
})

afterAll(() => {
  fs.rmSync(lib, { recursive: true, force: true })
  fs.rmSync(ws, { recursive: true, force: true })
})

/** [argv (L = the library, W = a workspace folder), the code, the English said before codes] */
type Case = [string[], MessageCode, string]

const CASES: Case[] = [
  // one of two or more words
  [['mcp', '--print-tools', 'x'], 'cli.must_be_either', '--print-tools must be openai or memory-tools'],
  [['mcp', '--print-prompt', '--lang', 'fr'], 'cli.must_be_either', '--lang must be en or zh'],
  [['import', '--from', 'W', '--as', 'x', '--library', 'W'], 'cli.must_be_either', '--as must be skill-md or agiagent'],
  [['curate', '--library', 'L', '--llm', 'x'], 'cli.must_be_either', '--llm must be offline or openai'],
  [['reflect', '--root-dir', 'W', '--llm', 'x'], 'cli.must_be_either', '--llm must be offline or openai'],
  [['memory', 'consolidate', '--workspace', 'W', '--llm', 'x'], 'cli.must_be_either', '--llm must be offline or openai'],
  [['memory', 'evolve', '--workspace', 'W', '--root-dir', 'W', '--lang', 'x'], 'cli.must_be_either', '--lang must be en or zh'],
  [['mcp', '--print-config', 'x', '--library', 'L'], 'cli.takes_one_of', '--print-config takes one of claude, mcp-json, codex, cursor'],
  [['edit', '1768616001', '--mode', 'x', '--text', 'a', '--library', 'L'], 'cli.must_be_one_of', '--mode must be one of full_replace, append, lines_replace'],
  [['export', '--library', 'L', '--to', 'x'], 'cli.must_be_one_of', '--to must be one of agiagent, skill-md, learned-yaml, mas-config'],
  [['import', '--from', 'W', '--format', 'x', '--library', 'W'], 'cli.format_auto_or_one_of', '--format must be auto or one of agiagent, skill-md, learned-yaml, mas-config'],
  [['audit', 'L', '--fail-on', 'x'], 'cli.fail_on_level', '--fail-on must be high, medium or low, got "x"'],
  // numbers
  [['query', 'x', '--top', '0', '--library', 'L'], 'cli.whole_number_range', '--top must be a whole number from 1 to 50'],
  [['reflect', '--root-dir', 'W', '--concurrency', '65'], 'cli.whole_number_range', '--concurrency must be a whole number from 1 to 64'],
  [['use', 'q', '--timeout-ms', '0'], 'cli.whole_number_range', '--timeout-ms must be a whole number from 1 to 10000'],
  [['rate', '1768616001', '7', '--library', 'L'], 'cli.rating_range', "RATING must be a number from 0 to 1 (got '7')"],
  [['curate', '--library', 'L', '--eps', 'x'], 'cli.must_be_number', '--eps must be a number'],
  [['memory', 'prompt', '--workspace', 'W', '--budget', '0'], 'cli.positive_whole_number', '--budget must be a positive whole number'],
  [['reflect', '--root-dir', 'W', '--budget', '5'], 'cli.budget_min', '--budget must be a number of characters ≥ 1000'],
  [['search-server', '--idle-minutes', '0', '--library', 'L'], 'cli.idle_minutes_range', '--idle-minutes must be a number above 0, at most 1440'],
  [['usage', '--library', 'L', '--since', 'x'], 'cli.since_format', '--since takes a date (2026-11-01), a date and time (ISO 8601) or days back (30d), not "x"'],
  // the arguments themselves
  [['rate', '1', '--library', 'L'], 'cli.expected_id_and_rating', 'expected exactly two arguments: ID RATING'],
  [['delete', '--library', 'L'], 'cli.expected_one_id', 'expected exactly one argument: ID'],
  [['edit', '--library', 'L'], 'cli.expected_one_id', 'expected exactly one argument: ID'],
  [['validate'], 'cli.give_one_path', 'give one PATH (a skill file or a folder of skills)'],
  [['restore', '--library', 'L'], 'cli.give_one_skill_id', 'give one skill id'],
  [['accept', '--library', 'L'], 'cli.give_one_proposal_id', 'give one proposal id (see `skillbench proposals`)'],
  [['reject', '--library', 'L'], 'cli.give_one_proposal_id', 'give one proposal id (see `skillbench proposals`)'],
  [['proposals', 'a', 'b', '--library', 'L'], 'cli.proposals_one_id', 'give at most one proposal id (`skillbench proposals ID` shows that one with its diff)'],
  [['accept', 'x', '--file', 'SKILL.md', '--library', 'L'], 'cli.file_needs_from', '--file goes with --from FILE (it names the file of the proposal the resolved text is for)'],
  [['undo', '--library', 'L'], 'cli.give_one_proposal_or_journal_id', 'give one proposal or journal id'],
  [['audit'], 'cli.give_paths', 'give one or more PATHs: skill folders, libraries or single skill files'],
  [['copy-files', '1768616001', '--library', 'L'], 'cli.give_files', 'give at least one FILE (relative to the workspace)'],
  [['use'], 'cli.give_question', 'give the question as one argument, in quotes'],
  [['install', '--library', 'L'], 'cli.give_install_source', 'give one SOURCE: a git URL (https, ssh, file://) or a local repository folder'],
  [['enable', '--to', 'claude', '--library', 'L'], 'cli.name_skills', 'name the skills to enable'],
  [['disable', '--to', 'claude', '--library', 'L'], 'cli.name_skills', 'name the skills to disable'],
  [['copy-files', '--library', 'L'], 'cli.missing_skill_id', 'missing skill id'],
  [['query', '--library', 'L'], 'cli.missing_query', 'missing query text'],
  [['curate', 'extra', '--library', 'L'], 'cli.unexpected_positional', "Unexpected argument 'extra'. This command does not take positional arguments"],
  [['usage', 'extra', '--library', 'L'], 'cli.unexpected_argument', "unexpected argument 'extra'"],
  [['profile', 'show', 'a', 'b', '--library', 'L'], 'cli.unexpected_argument', "unexpected argument 'b'"],
  // options required, or that go with others
  [['import', '--library', 'W'], 'cli.from_required', '--from DIR is required (the folder holding the skills to import)'],
  [['export', '--library', 'L', '--to', 'skill-md'], 'cli.out_required', '--out DIR is required (the folder to write the converted skills to)'],
  [['gen-commands', '--library', 'L'], 'cli.bin_required', '--bin DIR is required (where the commands go; put it on your PATH)'],
  [['copy-files', '1768616001', 'a.txt', '--library', 'L'], 'cli.workspace_missing', 'missing --workspace DIR (the task folder the files are in)'],
  [['edit', '1768616001', '--mode', 'append', '--library', 'L'], 'cli.text_missing', 'missing --text TEXT'],
  [['mcp', '--lang', 'en'], 'cli.lang_with_print_prompt', '--lang goes with --print-prompt'],
  [['edit', '1768616001', '--mode', 'append', '--text', 'a', '--old', 'b', '--library', 'L'], 'cli.old_only_lines_replace', '--old is only used with --mode lines_replace'],
  [['edit', '1768616001', '--mode', 'lines_replace', '--text', 'a', '--library', 'L'], 'cli.lines_replace_needs_old', 'lines_replace needs --old TEXT (the exact text to replace)'],
  [['memory', 'add-procedural', '--workspace', 'W'], 'cli.add_procedural_needs', 'add-procedural needs --tool NAME and --reason "…"'],
  [['memory', 'accept-preference', '--workspace', 'W'], 'cli.needs_preference_id', 'accept-preference needs the preference id (see `skillbench memory show`)'],
  [['memory', 'add-lesson', '--workspace', 'W', '--hallucinated-tool', 'x'], 'cli.hallucinated_tool_needs_tools', '--hallucinated-tool needs --tools a,b,c (the registered tool names)'],
  [['memory', 'add-lesson', '--workspace', 'W'], 'cli.add_lesson_needs_one', 'add-lesson needs exactly one of --text, --hallucinated-tool (with --tools) or --critic'],
  [['memory', 'capture-preferences', '--workspace', 'W'], 'cli.capture_preferences_needs', 'capture-preferences needs a FILE (log, scan --json output), --text "…" or --root-dir DATA_ROOT'],
  [['install', 'x', '--locked', '--library', 'L'], 'cli.locked_only_library', '--locked installs what skills.lock says: give only --library DIR'],
  // say which: source, library, workspace, target, profile, subcommand
  [['reflect', '--claude-dir', 'W', '--codex-dir', 'W', '--library', 'L'], 'cli.give_session_source', 'give one session source: --claude-dir, --codex-dir or --synapse-dir'],
  [['scan', '--root-dir', 'W', '--claude-dir', 'W'], 'cli.give_scan_source', 'give one source: --root-dir, --claude-dir, --codex-dir or --synapse-dir'],
  [['memory', 'evolve', '--workspace', 'W', '--library', 'L'], 'cli.evolve_needs_source', 'evolve needs one source of tasks: --root-dir DATA_ROOT, --claude-dir DIR, --codex-dir DIR, --synapse-dir DIR, or scan JSON files'],
  [['reflect', '--library', 'L'], 'cli.library_needs_session_source', '--library goes with a session source (--claude-dir, --codex-dir, --synapse-dir or --hook); an AGIAgent data root is --root-dir DIR, its skills going to DIR/<user>/general/experience'],
  [['reflect', '--claude-dir', 'W'], 'cli.session_sources_need_library', 'session sources need a library: --root-dir DIR (its default user) or --library DIR'],
  [['memory', 'evolve', '--workspace', 'W', '--root-dir', 'W'], 'cli.which_library_reviews', 'say which library reviews the proposals: --library DIR (or --root-dir DATA_ROOT --user NAME)'],
  [['usage'], 'cli.which_library_dir', 'say which library: --library DIR'],
  [['memory', 'show'], 'cli.which_workspace', 'say which workspace: --workspace DIR (its memory/ folder is used)'],
  [['deploy', '--library', 'L'], 'cli.deploy_where', 'say where to deploy: --to claude | claude-project:PATH | codex | agents:PATH | gemini | opencode | a folder (or --profile NAME)'],
  [['enable', '--library', 'L'], 'cli.which_target', 'say for which target: --to claude | claude-project:PATH | codex | agents:PATH | … | a folder'],
  [['memory'], 'cli.memory_what_to_do', 'say what to do: show, add-lesson, add-procedural, capture-preferences, accept-preference, reject-preference, consolidate, evolve or prompt'],
  [['profile', 'show', '--library', 'L'], 'cli.which_profile', 'say which profile: skillbench profile show NAME'],
  // unknown words, inputs that are not what they should be: codes of their own or the table's
  [['memory', 'frob', '--workspace', 'W'], 'cli.unknown_memory_subcommand', "unknown subcommand 'frob' (see skillbench memory --help)"],
  [['profile', 'frob', 'x', '--library', 'L'], 'cli.unknown_profile_action', 'unknown action "frob": use profile list, profile show NAME or profile set NAME'],
  [['memory', 'evolve', 'notes.json', '--workspace', 'W', '--library', 'L'], 'cli.not_scan_output', 'notes.json: not `skillbench scan --json` output nor task traces'],
  [['memory', 'evolve', '--workspace', 'W', '--root-dir', 'W', '--library', 'W/nope'], 'library.not_found', 'library folder not found: W/nope'],
  [['deploy', '--profile', 'nope', '--library', 'L'], 'deploy.no_profile_in', 'no deploy profile "nope" in L (see skillbench profile list)'],
  [['profile', 'show', 'nope', '--library', 'L'], 'deploy.no_profile_in', 'no deploy profile "nope" in L (see skillbench profile list)'],
  [['rate', '12ab', '0.5', '--library', 'L'], 'skill.invalid_id', 'invalid skill id "12ab": an id is 1–20 digits']
]

/** Commands without --json (the code is read from the UsageError they throw); reflect --hook exits 1, never 2. */
const NO_JSON: Case[] = [
  [['hooks'], 'cli.print_required', '--print claude|codex is required'],
  [['hooks', '--print', 'x'], 'cli.takes_either', '--print takes claude or codex'],
  [['hooks', '--print', 'claude'], 'cli.hooks_need_library', 'give the library the skills go to: --library DIR or --root-dir DIR'],
  [['hooks', '--print', 'claude', '--library', 'L', '--llm', 'x'], 'cli.must_be_either', '--llm must be offline or openai'],
  [['serve', '--port', '99999'], 'cli.port_range', '--port must be 0..65535 (0 = a free port), got "99999"']
]

const fill = (words: string): string => words.replaceAll('W/', `${ws}/`).replace(/^W$/, ws).replace(/^L$/, lib).replace(/ L /, ` ${lib} `)
const argvOf = (argv: string[]): string[] => argv.map((a) => (a === 'L' ? lib : a === 'W' ? ws : a.startsWith('W/') ? path.join(ws, a.slice(2)) : a))

/** Every string a message's params hold (nested messages' too): data the user gave, kept as it came in any language. */
function paramWords(params: MessageParams): string[] {
  return Object.values(params).flatMap((v) => (typeof v === 'object' && v !== null ? paramWords((v as { params: MessageParams }).params) : [String(v)]))
}

/**
 * The Latin words left in a Chinese message once what is typed as it is has been taken out: the params, options
 * (--library), backquoted commands, PLACEHOLDERS (DIR, DATA_ROOT), paths and file names (memory/, skills.lock,
 * file://), words-with-hyphens-or_underscores (add-lesson, lines_replace), and the values and command names a user
 * types (below). Whatever is left is English that should have been translated.
 */
const TYPED = new Set(['skillbench', 'auto', 'high', 'medium', 'low', 'claude', 'codex', 'gemini', 'opencode', 'agents', 'git', 'https', 'ssh', 'ISO', 'AGIAgent',
  'show', 'consolidate', 'evolve', 'prompt', 'profile', 'list', 'set', 'scan', 'memory', 'proposals', 'json', 'JSON', 'URL', 'id'])
function untranslated(zh: string, params: MessageParams): string[] {
  let rest = zh
  for (const w of paramWords(params).sort((a, b) => b.length - a.length)) if (w) rest = rest.split(w).join(' ')
  rest = rest
    .replace(/`[^`]*`/g, ' ')
    .replace(/\b[a-z]+(?:[-_][a-z]+)+\b/g, ' ')
    .replace(/--?[a-z][a-z-]*/g, ' ')
    .replace(/[\w~<>-]*(?:[/.:][\w~<>-]*)+/g, (m) => (/[/.:]/.test(m) ? ' ' : m))
    .replace(/\b[A-Z][A-Z_]+s?\b/g, ' ')
  return (rest.match(/[A-Za-z]{3,}/g) ?? []).filter((w) => !TYPED.has(w))
}

describe('a command’s own bad usage has its own code', () => {
  it('with --json: the code (not cli.usage), the same English on stderr as before, exit 2, and Chinese by code', async () => {
    for (const [argv, code, english] of CASES) {
      const words = fill(english)
      const r = await runCli([...argvOf(argv), '--json'], ws, {})
      const name = argv[0]!
      expect(r.stderr, argv.join(' ')).toBe(`skillbench ${name}: ${words}\n`)
      expect(r.code, argv.join(' ')).toBe(2)
      const answer = JSON.parse(r.stdout) as { status: string; code: string; message: string; message_code: string; params: MessageParams }
      expect(answer, argv.join(' ')).toMatchObject({ status: 'error', code: 'usage', message: words, message_code: code })
      expect(answer.message_code).not.toBe('cli.usage')
      const zh = translateMessage({ messageCode: answer.message_code, params: answer.params }, answer.message, 'zh')
      expect(zh, argv.join(' ')).not.toBe(words)
      expect(zh).not.toContain('用法有误')
      expect(untranslated(zh, answer.params), `${code}: ${zh}`).toEqual([])
    }
    // a sample of the Chinese as a reader sees it
    const zhOf = async (argv: string[]): Promise<string> => {
      const a = JSON.parse((await runCli([...argvOf(argv), '--json'], ws, {})).stdout) as { message: string; message_code: string; params: MessageParams }
      return translateMessage({ messageCode: a.message_code, params: a.params }, a.message, 'zh')
    }
    expect(await zhOf(['rate', '1768616001', '7', '--library', 'L'])).toBe('RATING 必须是 0 到 1 之间的数（收到的是“7”）')
    expect(await zhOf(['query', 'x', '--top', '0', '--library', 'L'])).toBe('--top 必须是 1 到 50 之间的整数')
    expect(await zhOf(['curate', '--library', 'L', '--llm', 'x'])).toBe('--llm 只能是 offline 或 openai')
    expect(await zhOf(['curate', 'extra', '--library', 'L'])).toBe('多余的参数“extra”：此命令不接受位置参数')
  }, 60_000)

  it('without --json (hooks, serve): the same English on stderr, stdout empty, and the UsageError carries the code', async () => {
    for (const [argv, code, english] of NO_JSON) {
      const r = await runCli(argvOf(argv), ws, {})
      expect(r, argv.join(' ')).toEqual({ code: 2, stdout: '', stderr: `skillbench ${argv[0]}: ${fill(english)}\n` })
      const { command } = (await import(`../../src/main/cli/commands/${argv[0]}.ts`)) as { command: { run: (a: string[], io: CliIo) => Promise<number> } }
      const io: CliIo = { stdout: () => {}, stderr: () => {}, isTTY: false, cwd: ws, env: {}, signal: new AbortController().signal }
      const thrown = await command.run(argvOf(argv).slice(1), io).then(() => null, (e: unknown) => e)
      expect(thrown, argv.join(' ')).toBeInstanceOf(UsageError)
      expect((thrown as UsageError).messageCode).toBe(code)
      const zh = translateMessage({ messageCode: code, params: (thrown as UsageError).params }, '', 'zh')
      expect(untranslated(zh, (thrown as UsageError).params), `${code}: ${zh}`).toEqual([])
    }
    // an agent's hook with a wrong agent: exit 1 (never 2, see reflect.ts), the same words, the code on the error
    const hook = await runCli(['reflect', '--hook', 'x', '--library', lib], ws, {})
    expect(hook).toEqual({ code: 1, stdout: '', stderr: 'skillbench reflect --hook: --hook takes claude or codex\n' })
    const { hookTarget } = await import('../../src/main/cli/hook-session')
    const io: CliIo = { stdout: () => {}, stderr: () => {}, isTTY: false, cwd: ws, env: {}, signal: new AbortController().signal }
    await expect(hookTarget('x', { io, stdin: '' })).rejects.toMatchObject({ messageCode: 'cli.takes_either', params: { option: '--hook', a: 'claude', b: 'codex' } })
  }, 60_000)

  it('every cli.* code of the table has Chinese with no untranslated English, and each new one is run above', () => {
    const run = new Set([...CASES, ...NO_JSON].map((c) => c[1]))
    // reached elsewhere: a35e9cb's and 996d476's codes (usage-errors-json, library-address) and the catch-all
    const elsewhere = new Set(['cli.usage', 'cli.unknown_command', 'cli.unknown_command_meant', 'cli.unknown_option', 'cli.unknown_option_meant', 'cli.needs_value', 'cli.takes_no_value', 'cli.which_library', 'cli.root_dir_needs_user', 'cli.library_and_root_dir', 'cli.unexpected_argument',
      // the CLI's --lang and SKILLBENCH_LANG (test/cli/cli-lang)
      'cli.unknown_lang', 'cli.unknown_lang_env',
      // the bundled sample data never written, a library given as reflect's root (test/cli/bundled-sample, test/cli/wrong-folder)
      'cli.bundled_sample_read_only', 'cli.bundled_sample_not_counted', 'cli.root_is_library',
      // a data root config.txt names, said with its file (test/cli/config-root)
      'cli.root_from_config',
      // an option given to a command that has none (test/cli/option-tables walks every command's table)
      'cli.unknown_option_none',
      // how to undo a direct edit, delete or restore (test/cli/direct-undo)
      'cli.undo_with'])
    const codes = (Object.keys(MESSAGE_TEMPLATES) as MessageCode[]).filter((c) => c.startsWith('cli.'))
    expect(codes.filter((c) => !run.has(c) && !elsewhere.has(c)), 'cli codes no case runs').toEqual([])
    for (const code of codes) {
      if (code === 'cli.usage') continue // '用法有误：{problem}': the words of a parse error Node said, as they came
      const names = [...MESSAGE_TEMPLATES[code].matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
      const params = Object.fromEntries(names.map((n) => [n, `‹${n}›`]))
      const zh = translateMessage({ messageCode: code, params }, '', 'zh')
      expect(untranslated(zh, params), `${code}: ${zh}`).toEqual([])
    }
  })
})

describe('src/main/cli throws no UsageError of plain words', () => {
  it('each new UsageError(…) takes a coded message (allowed otherwise: none but the two already coded values below)', () => {
    const root = path.join(__dirname, '../../src/main/cli')
    // documented exceptions: a value that is already a CodedText (arg-words' argProblem, the unknown command's problem)
    const ALLOWED = new Set(['common.ts: argProblem', 'index.ts: problem'])
    const found: string[] = []
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (p.endsWith('.ts')) {
          const text = fs.readFileSync(p, 'utf8')
          for (const m of text.matchAll(/new UsageError\(\s*(\S{0,40})/g)) {
            const head = m[1]!
            if (head.startsWith('coded(')) continue
            const where = `${path.relative(root, p)}: ${/^\w+/.exec(head)?.[0] ?? head}`
            if (!ALLOWED.has(where)) found.push(where)
          }
        }
      }
    }
    walk(root)
    expect(found).toEqual([])
  })
})
