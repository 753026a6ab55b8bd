import type { CliCommand } from './common'

/** One `skillbench` command: its one-line summary (for `--help`) and a loader for its module. */
export interface CommandEntry {
  summary: string
  load: () => Promise<{ command: CliCommand }>
  /** The command has a `--lang` of its own (the language of what it writes), which then also words its stderr (cli/lang.ts). */
  ownsLang?: true
}

/**
 * Every `skillbench` command. Modules load lazily, one file per command (`commands/<name>.ts`, exporting
 * `command`), so `skillbench query` does not pay for the web server or the MCP SDK; the summaries live here so
 * `skillbench --help` loads no command at all.
 */
export const COMMANDS: Record<string, CommandEntry> = {
  version: {
    summary: 'Print the Skillbench version',
    load: () => import('./commands/version')
  },
  export: {
    summary: 'Convert a library to another skill format (skill-md, agiagent, learned-yaml, mas-config) without losing fields',
    load: () => import('./commands/export')
  },
  import: {
    summary: 'Import skills of any format into a library (as SKILL.md folders, or skill_*.md in an AGIAgent library); index.json kept in sync',
    load: () => import('./commands/import')
  },
  use: {
    summary: "Find the learned skills (.sman/skills/*.yaml) whose trigger_pattern matches a question (unsafe regexes are rejected, matching is time-bounded)",
    load: () => import('./commands/use')
  },
  validate: {
    summary: 'Check skill files of every format (SKILL.md, skill_*.md, *_config.yaml, learned YAML): path + problem per file',
    load: () => import('./commands/validate')
  },
  hooks: {
    summary: 'Print the Claude Code Stop hook or Codex notify line that reflects each finished session (--decide) while auto-enhance is on',
    load: () => import('./commands/hooks')
  },
  'gen-commands': {
    summary: "Turn each SKILL.md skill's scripts/* into executables skill:<skill>:<tool> in a bin folder (-h prints the script's doc)",
    load: () => import('./commands/gen-commands')
  },
  audit: {
    summary: 'Check skills before an agent runs them: hidden text, instructions against the user, risky scripts, links out (exit 1 at --fail-on)',
    load: () => import('./commands/audit')
  },
  list: {
    summary: 'List the skills of a library (and the files that could not be read)',
    load: () => import('./commands/list')
  },
  query: {
    summary: 'Find the skills most relevant to a text (TF-IDF, Chinese and English)',
    load: () => import('./commands/query')
  },
  'search-server': {
    summary: "Keep a library's search index in memory for fast queries (started by query on large libraries)",
    load: () => import('./commands/search-server')
  },
  rate: {
    summary: 'Rate a skill from 0 to 1 (quality = 0.7 × old + 0.3 × rating)',
    load: () => import('./commands/rate')
  },
  edit: {
    summary: "Edit a skill's body: full_replace, append, or lines_replace (--old must match exactly once)",
    load: () => import('./commands/edit')
  },
  delete: {
    summary: 'Retire a skill: move it to legacy/ (never deleted)',
    load: () => import('./commands/delete')
  },
  'copy-files': {
    summary: "Back up a task's code/document files into the skill's codes/task_…/ folder",
    load: () => import('./commands/copy-files')
  },
  serve: {
    summary: 'Run the workbench in your browser (web mode on 127.0.0.1, token-protected)',
    load: () => import('./commands/serve')
  },
  scan: {
    summary: 'Find agent tasks (AGIAgent roots, Claude Code, Codex, Synapse sessions) and parse their logs',
    load: () => import('./commands/scan')
  },
  memory: {
    summary: 'Long-term memory files: lessons, preferences, procedural memory, daily-log consolidation, prompt sections',
    load: () => import('./commands/memory'),
    ownsLang: true
  },
  mcp: {
    summary: 'Serve the skill tools to any MCP client (Claude Code, Codex, Cursor…) over stdio',
    load: () => import('./commands/mcp'),
    ownsLang: true
  },
  reflect: {
    summary: 'Turn finished agent tasks into skills (offline by default, or with an OpenAI-compatible model)',
    load: () => import('./commands/reflect'),
    ownsLang: true
  },
  usage: {
    summary: "Which skills agents really used (Claude Code, Codex, Synapse, AGIAgent logs, Skillbench's own queries) and how those tasks ended, against tasks without them",
    load: () => import('./commands/usage')
  },
  curate: {
    summary: 'Propose merges, consolidations and cleanups for a library (nothing changes until accepted or --apply)',
    load: () => import('./commands/curate')
  },
  proposals: {
    summary: 'List the pending curation plan with each proposal\'s status',
    load: () => import('./commands/proposals')
  },
  accept: {
    summary: 'Apply one proposal of the pending plan (all-or-nothing, journaled, undoable)',
    load: () => import('./commands/accept')
  },
  reject: {
    summary: 'Mark a proposal of the pending plan as rejected (no file changes)',
    load: () => import('./commands/reject')
  },
  unreject: {
    summary: 'Undo a rejection: the proposal waits for review again (refused when its skills changed since)',
    load: () => import('./commands/unreject')
  },
  undo: {
    summary: 'Revert an applied proposal or a deploy (by proposal or journal id) if its files are unchanged since',
    load: () => import('./commands/undo')
  },
  restore: {
    summary: 'Bring a skill back from legacy/',
    load: () => import('./commands/restore')
  },
  install: {
    summary: 'Install the skills of a git repository (https, ssh, file://, a local repo) into a library, with their provenance; never overwrites',
    load: () => import('./commands/install')
  },
  sync: {
    summary: "Share the library with your team through git: commit local changes, fetch, join, push (--init URL to start)",
    load: () => import('./commands/sync')
  },
  update: {
    summary: 'Fetch the sources of installed skills and queue an update proposal (exact before/after) for each one that changed upstream',
    load: () => import('./commands/update')
  },
  deploy: {
    summary: "Write the library's skills into an agent's skills folder (claude, codex, agents:PATH, …): only what changed, never touching what it did not place",
    load: () => import('./commands/deploy')
  },
  enable: {
    summary: 'Deploy skills to a target again after disable (skillbench enable SKILL... --to TARGET)',
    load: () => import('./commands/enable')
  },
  disable: {
    summary: "Keep skills out of one agent's folder without leaving the library: the next deploy removes the copies Skillbench placed",
    load: () => import('./commands/disable')
  },
  profile: {
    summary: 'Deploy profiles: named sets of skills (name, tag:, collection:) bound to targets, kept in the library (list | show NAME | set NAME)',
    load: () => import('./commands/profile')
  }
}
