import type { CliCommand, CommandArgs, CommandWrites } from './common'

/** One `skillbench` command: its one-line summary (for `--help`) and a loader for its module. */
export interface CommandEntry {
  summary: string
  load: () => Promise<{ command: CliCommand }>
  /** The command has a `--lang` of its own (the language of what it writes), which then also words its stderr (cli/lang.ts). */
  ownsLang?: true
  /**
   * Whether the command may write where its arguments point (a library, a data root, a workspace, a target): one
   * that may is refused before it runs when one of them is in the bundled sample data (cli/bundled-sample.ts); one
   * that only reads there runs on it, and only where its output goes (`--out`, `--bin`) is checked. Said by every
   * command (test/cli/command-writes walks this table): `true`, `false`, or by its arguments (a subcommand,
   * `--dry-run`), parsed with the command's own option table.
   */
  writes: CommandWrites
}

/** A command that writes unless its first positional (the subcommand) is one of `reading`. */
const writesUnless =
  (...reading: string[]) =>
  (args: CommandArgs): boolean =>
    !reading.includes(args.positionals[0] ?? '')

/**
 * Every `skillbench` command. Modules load lazily, one file per command (`commands/<name>.ts`, exporting
 * `command`), so `skillbench query` does not pay for the web server or the MCP SDK; the summaries live here so
 * `skillbench --help` loads no command at all.
 */
export const COMMANDS: Record<string, CommandEntry> = {
  version: {
    summary: 'Print the Skillbench version',
    load: () => import('./commands/version'),
    writes: false
  },
  export: {
    summary: 'Convert a library to another skill format (skill-md, agiagent, learned-yaml, mas-config) without losing fields',
    load: () => import('./commands/export'),
    writes: false
  },
  import: {
    summary: 'Import skills of any format into a library (as SKILL.md folders, or skill_*.md in an AGIAgent library); index.json kept in sync',
    load: () => import('./commands/import'),
    writes: true
  },
  use: {
    summary: "Find the learned skills (.sman/skills/*.yaml) whose trigger_pattern matches a question (unsafe regexes are rejected, matching is time-bounded)",
    load: () => import('./commands/use'),
    writes: false
  },
  validate: {
    summary: 'Check skill files of every format (SKILL.md, skill_*.md, *_config.yaml, learned YAML): path + problem per file',
    load: () => import('./commands/validate'),
    writes: false
  },
  hooks: {
    summary: 'Print the Claude Code Stop hook or Codex notify line that reflects each finished session (--decide) while auto-enhance is on',
    load: () => import('./commands/hooks'),
    // it only prints, but what it prints is `skillbench reflect --hook … --decide` on that library: a writer
    writes: true
  },
  'gen-commands': {
    summary: "Turn each SKILL.md skill's scripts/* into executables skill:<skill>:<tool> in a bin folder (-h prints the script's doc)",
    load: () => import('./commands/gen-commands'),
    writes: false
  },
  audit: {
    summary: 'Check skills before an agent runs them: hidden text, instructions against the user, risky scripts, links out (exit 1 at --fail-on)',
    load: () => import('./commands/audit'),
    writes: false
  },
  list: {
    summary: 'List the skills of a library (and the files that could not be read)',
    load: () => import('./commands/list'),
    writes: false
  },
  query: {
    summary: 'Find the skills most relevant to a text (TF-IDF, Chinese and English)',
    load: () => import('./commands/query'),
    // a query of the bundled sample answers without counting the use (query.ts)
    writes: false
  },
  'search-server': {
    summary: "Keep a library's search index in memory for fast queries (started by query on large libraries)",
    load: () => import('./commands/search-server'),
    writes: false
  },
  rate: {
    summary: 'Rate a skill from 0 to 1 (quality = 0.7 × old + 0.3 × rating)',
    load: () => import('./commands/rate'),
    writes: true
  },
  edit: {
    summary: "Edit a skill's body: full_replace, append, or lines_replace (--old must match exactly once)",
    load: () => import('./commands/edit'),
    writes: true
  },
  delete: {
    summary: 'Retire a skill: move it to legacy/ (never deleted)',
    load: () => import('./commands/delete'),
    writes: true
  },
  'copy-files': {
    summary: "Back up a task's code/document files into the skill's codes/task_…/ folder",
    load: () => import('./commands/copy-files'),
    writes: true
  },
  serve: {
    summary: 'Run the workbench in your browser (web mode on 127.0.0.1, token-protected)',
    load: () => import('./commands/serve'),
    writes: true
  },
  scan: {
    summary: 'Find agent tasks (AGIAgent roots, Claude Code, Codex, Synapse sessions) and parse their logs',
    load: () => import('./commands/scan'),
    writes: false
  },
  memory: {
    summary: 'Long-term memory files: lessons, preferences, procedural memory, daily-log consolidation, prompt sections',
    load: () => import('./commands/memory'),
    ownsLang: true,
    // show and prompt only read the workspace's memory files
    writes: writesUnless('show', 'prompt')
  },
  mcp: {
    summary: 'Serve the skill tools to any MCP client (Claude Code, Codex, Cursor…) over stdio',
    load: () => import('./commands/mcp'),
    ownsLang: true,
    writes: true
  },
  reflect: {
    summary: 'Turn finished agent tasks into skills (offline by default, or with an OpenAI-compatible model)',
    load: () => import('./commands/reflect'),
    ownsLang: true,
    writes: true
  },
  usage: {
    summary: "Which skills agents really used (Claude Code, Codex, Synapse, AGIAgent logs, Skillbench's own queries) and how those tasks ended, against tasks without them",
    load: () => import('./commands/usage'),
    writes: false
  },
  curate: {
    summary: 'Propose merges, consolidations and cleanups for a library (nothing changes until accepted or --apply)',
    load: () => import('./commands/curate'),
    writes: true
  },
  proposals: {
    summary: 'List every proposal waiting for review (the plan\'s and agents\' MCP edits); `proposals ID` shows one with its reasons and diff',
    load: () => import('./commands/proposals'),
    writes: false
  },
  accept: {
    summary: 'Apply one proposal (all-or-nothing, journaled, undoable); --from FILE accepts a conflict resolved by hand',
    load: () => import('./commands/accept'),
    writes: true
  },
  reject: {
    summary: 'Mark a proposal (the plan\'s or an agent\'s) as rejected (no file changes)',
    load: () => import('./commands/reject'),
    writes: true
  },
  unreject: {
    summary: 'Undo a rejection: the proposal waits for review again (refused when its skills changed since)',
    load: () => import('./commands/unreject'),
    writes: true
  },
  undo: {
    summary: 'Revert an applied proposal or a deploy (by proposal or journal id) if its files are unchanged since',
    load: () => import('./commands/undo'),
    writes: true
  },
  restore: {
    summary: 'Bring a skill back from legacy/',
    load: () => import('./commands/restore'),
    writes: true
  },
  install: {
    summary: 'Install the skills of a git repository (https, ssh, file://, a local repo) into a library, with their provenance; never overwrites',
    load: () => import('./commands/install'),
    writes: true
  },
  sync: {
    summary: "Share the library with your team through git: commit local changes, fetch, join, push (--init URL to start)",
    load: () => import('./commands/sync'),
    writes: true
  },
  update: {
    summary: 'Fetch the sources of installed skills and queue an update proposal (exact before/after) for each one that changed upstream',
    load: () => import('./commands/update'),
    writes: true
  },
  deploy: {
    summary: "Write the library's skills into an agent's skills folder (claude, codex, agents:PATH, …): only what changed, never touching what it did not place",
    load: () => import('./commands/deploy'),
    // a dry run only plans
    writes: (args) => args.values['dry-run'] !== true
  },
  enable: {
    summary: 'Deploy skills to a target again after disable (skillbench enable SKILL... --to TARGET)',
    load: () => import('./commands/enable'),
    writes: true
  },
  disable: {
    summary: "Keep skills out of one agent's folder without leaving the library: the next deploy removes the copies Skillbench placed",
    load: () => import('./commands/disable'),
    writes: true
  },
  profile: {
    summary: 'Deploy profiles: named sets of skills (name, tag:, collection:) bound to targets, kept in the library (list | show NAME | set NAME)',
    load: () => import('./commands/profile'),
    // list and show (dry runs of each target) only read
    writes: writesUnless('list', 'show')
  }
}
