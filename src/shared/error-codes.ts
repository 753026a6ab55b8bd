/**
 * Every message the core sends to a person, by a stable code, with its English template (pure, no imports).
 *
 * An error or a progress line carries `{ messageCode, params }` beside its English text: the CLI, the MCP server
 * and logs print the text; the renderer looks the code up in its own table (i18n/messages-errors.ts, zh and en)
 * and fills the params, so no sentence is ever parsed back. `{name}` in a template is a param; a param may itself
 * be a coded message (a reason inside "not saved: {reason}"), which is rendered in the same language.
 * A code's template may gain words, but its params keep their names: clients match on code + params.
 */
export const MESSAGE_TEMPLATES = {
  // libraries and folders
  'library.unknown_root': 'unknown data root: {root} (add it in Settings first)',
  'library.unknown': 'unknown library: {library} (open the folder or add its data root first)',
  'library.missing': 'the library folder does not exist yet: {path}',
  'library.not_found': 'library folder not found: {path}',
  'library.busy': 'library busy: another Skillbench process (pid {pid}) is changing this library; waited {seconds} s — try again',
  'library.busy_for': 'library busy: another Skillbench process (pid {pid}, {purpose}) is changing this library; waited {seconds} s — try again',
  'library.busy_unknown': 'library busy: another Skillbench process is changing this library; waited {seconds} s — try again',
  'library.busy_here': 'library busy: another task of this process is changing this library; waited {seconds} s — try again',
  'path.not_absolute': 'give an absolute folder path (got "{path}")',
  'path.folder_not_found': 'folder not found: {path}',
  'path.not_folder': 'not a folder: {path}',
  'path.not_found': 'not found: {path}',
  'path.outside_root': 'refused: {path} is outside the data root',
  'path.not_file': '{path} is not a file',
  'path.does_not_exist': '{path} does not exist',
  'path.gone_from_disk': '{path} no longer exists on disk',
  'path.gone': '{path} no longer exists',
  'path.exists': '{path} already exists',
  'path.is_folder': '{path} is a folder',
  'path.not_absolute_or_url': '{what} must be a URL or an absolute folder path, got {value}',
  'path.what_source': 'the source',
  'path.what_target': 'the target',
  // tasks and logs
  'task.not_in_root': 'not a task of this data root: {task}',
  'task.unknown_user': 'unknown user "{user}" in {root}',
  'log.unknown_file': 'unknown log file "{name}" (this task has: {files})',
  'log.none': 'no log files in {dir}',
  // session folders (Claude Code, Codex…)
  'session.unknown_folder': 'unknown session folder: {dir} (add it on the Workspaces screen first)',
  'session.folder_missing': 'the session folder does not exist: {dir}',
  'session.folder_not_found': 'session folder not found: {dir}',
  'session.file_gone': 'the session file is not there any more: {path}',
  'session.not_task': 'not a task of this session folder: {task}',
  'session.not_file': 'not a session file: {path}',
  'session.not_added': 'not an added session folder: {path} (auto-detected folders are always shown)',
  // the API itself
  'api.unknown_method': 'unknown method: {method}',
  'api.invalid_input': 'invalid input for {method}: {problem}',
  'api.invalid_input_at': 'invalid input for {method} at "{field}": {problem}',
  'api.no_job': 'no such job: {job}',
  'api.unavailable': '{what} is not available yet in this build',
  'api.bad_token': 'missing or wrong session token',
  'api.cancelled': 'the operation was cancelled',
  'api.no_answer': 'the main process gave no answer',
  'api.forbidden_page': 'refused: this page may not use the Skillbench API',
  'api.unreachable': 'Cannot reach the Skillbench server ({detail})',
  'api.not_json': 'The server answered something that is not JSON (HTTP {status})',
  // skills and their files
  'skill.not_saved': 'not saved: {reason}',
  'skill.not_skill_file': 'not a skill file: {path}',
  'skill.no_code_folder': 'this library has no backed-up code (codes/ folder)',
  'skill.code_not_under_codes': 'not a backed-up code file of this library (must be under codes/): {path}',
  'skill.code_gone': '{path} is not there (moved or deleted?)',
  'skill.code_outside': "{path} points outside the library's codes/ folder",
  'skill.changed_since_read': '{path} changed on disk since it was read: reload it and try again',
  'skill.no_id': 'no skill with id {id}',
  'skill.no_active_id': 'no active skill with id {id}',
  'skill.invalid_id': 'invalid skill id {id}: an id is 1–20 digits',
  'skill.id_fixed': 'skill_id cannot be changed (it is {id})',
  'skill.not_in_legacy': 'skill {id} is not in legacy/',
  'skill.active_exists': 'an active skill with id {id} already exists ({path})',
  'skill.id_exists': 'a skill with id {id} already exists',
  'skill.quality_range': 'quality_index must be a number between 0 and 1',
  'skill.does_not_load': 'the file does not load as a skill',
  // files the store reads and writes
  'file.symlink_write': 'refusing to write through a symbolic link: {name}',
  'file.not_regular': 'not a regular file: {name}',
  'file.gone': 'file no longer exists: {name}',
  'file.exists': 'already exists: {name}',
  'file.problem': '{path}: {reason}',
  'file.text_not_string': 'text must be a string',
  'file.temp_name': 'that name is reserved for temp files',
  'file.bookkeeping': ".skillbench/ holds the library's bookkeeping: it is not written as a file",
  'file.not_utf8_never_rewritten': '{path} is not valid UTF-8: it is never rewritten',
  'file.not_regular_path': '{path} is not a regular file',
  'file.larger_than': '{path} is larger than {bytes} bytes',
  'file.is_not_folder': '{path} is not a folder',
  'file.escape': '{path}: {why}; nothing was written outside the library',
  'file.why_symlink_folder': 'is a symbolic link (folders the product writes into must be real folders inside the library)',
  'file.why_symlink_write': 'is a symbolic link (never written through)',
  'file.why_symlink_append': 'is a symbolic link (never appended through)',
  'file.why_symlink_read': 'is a symbolic link (never read through)',
  'file.why_symlink_move': 'is a symbolic link (never moved)',
  // paths a caller gives (library-relative)
  'relpath.refused': 'path refused: {why}',
  'relpath.refused_named': 'path refused ({path}): {why}',
  'relpath.too_long': 'path is too long',
  'relpath.control_char': 'path contains a control character',
  'relpath.backslash': 'backslashes are not allowed in paths',
  'relpath.absolute': 'absolute paths are not allowed',
  'relpath.dot_segment': '"..", "." and empty path segments are not allowed',
  'relpath.reserved_file_name': '"{segment}" is a reserved file name',
  'relpath.trailing_dot': 'path segments may not end in a dot or a space',
  'relpath.empty': 'a path must be a non-empty string',
  'relpath.leads_outside': 'it leads outside the library',
  'relpath.link_outside': 'a symbolic link leads outside the library',
  'relpath.link_nowhere': 'a symbolic link leads outside the library (or nowhere)',
  // the library lock
  'lock.symlink': '{file} is a symbolic link: refusing to use it as the library lock',
  'lock.dead_takeover': 'library busy: the lock {lock} was left by processes that died while taking it over; remove the {name}* files in {dir} if no Skillbench process runs',
  // skills.lock
  'lockfile.not_json': '{file} is not JSON ({detail}): fix it, or take it again from version control',
  'lockfile.problem': '{file}: {why}',
  'lockfile.entry_problem': '{name}: {why}',
  'lockfile.risk_problem': '{name}: risk {why}',
  'lockfile.not_object': 'not an object',
  'lockfile.bad_version': 'version {version} is not one this Skillbench reads ({expected})',
  'lockfile.skills_not_object': '"skills" is not an object',
  'lockfile.bad_name': '{name} is not a skill folder name',
  'lockfile.field_missing': '"{field}" is missing or not text',
  'lockfile.retired_true': '"retired" is true or absent',
  'lockfile.bad_commit': 'commit {commit} is not a full commit id',
  'lockfile.bad_hash': 'hash {hash} is not sha256:<64 hex digits>',
  'lockfile.empty_source': 'empty source or ref',
  'lockfile.bad_path': 'path {path} is not a folder inside the repository',
  'lockfile.risk_not_object': 'is not an object',
  'lockfile.risk_allowed': 'needs "allowed_by" and "allowed_at" as text',
  'lockfile.risk_findings': 'needs a "findings" list',
  'lockfile.risk_finding': 'finding {n} needs file, line, rule, severity and message',
  // writing skills (the store's checks)
  'skill.duplicate_id': 'skill id {id} is used by {count} files ({paths}): give one of them a new skill_id first; nothing was changed',
  'skill.fetch_count_range': 'fetch_count must be a whole number ≥ 0',
  'skill.title_empty': 'title must be a non-empty string',
  'skill.task_dirs_list': 'task_directories must be a list of strings',
  'skill.no_longer_holds': '{path} no longer holds skill {id}',
  'skill.body_not_string': 'body must be a string',
  'skill.not_read_back': '{path} could not be read back after writing',
  'skill.not_read_back_restored': '{path} could not be read back after restoring',
  'skill.new_needs_title': 'a new skill needs a title',
  'skill.new_needs_body': 'a new skill needs a body',
  'skill.skillmd_bad_name': 'SKILL.md name {name} must be lowercase letters, digits and hyphens (≤ 64)',
  'skill.reserved_name': 'the name "{name}" is reserved: a library keeps its {what} in a folder of that name; rename the skill',
  'skill.reserved_legacy': 'retired skills',
  'skill.reserved_codes': 'files backed up from tasks',
  'skill.reserved_logs': 'reflection and curation logs',
  'skill.folder_exists': 'a folder named {name} already exists',
  'skill.library_is_skill': 'the library folder itself is this skill: it cannot be moved to legacy/',
  'skill.in_legacy_folder': '{dir}/SKILL.md lies in the folder of retired skills itself: move it into a folder of its own to restore it',
  'skill.metadata_not_mapping': '"metadata" in this SKILL.md is not a mapping: refusing to write bookkeeping into it',
  'skill.skillbench_not_mapping': '"metadata.skillbench" in this SKILL.md is not a mapping',
  // deploying skills into agents' folders
  'deploy.target_symlink': '{dir} is a symbolic link (→ {to}): refusing to deploy into a folder that leads elsewhere; give the real folder instead',
  'deploy.bad_target': '{reason}',
  'deploy.config_invalid': '{reason}: fix it (or take it again from version control); it was not changed',
  'deploy.no_profile_in': 'no deploy profile {profile} in {root} (see skillbench profile list)',
  'deploy.no_profile': 'no deploy profile {profile}',
  'deploy.no_skill_named': 'no active skill named {name} in {root}',
  'deploy.not_sha256': 'not a sha256: {hash}',
  'deploy.none_disabled': 'no active skill named {names} in {root}: nothing was disabled',
  'deploy.bad_profile_name': '{name} is not a profile name: letters, digits, . _ - (up to 64)',
  'deploy.profile_needs_target': 'profile {name} needs at least one target (--to)',
  'deploy.bad_selector': '{selector} is not a selector: NAME, tag:TAG, collection:NAME or *',
  'deploy.bytes_gone': "the bytes of {path} ({hash}) are no longer in the library's deploy store",
  'deploy.changed_while': '{path} changed while deploying: nothing was changed, run the deploy again',
  'deploy.rollback_failed': 'an interrupted deploy into {dir} could not be rolled back: {problems}',
  'deploy.no_deploy': 'no deploy with id {id} in the journal',
  'deploy.target_gone': '{dir} is no longer a folder: nothing to undo there',
  'deploy.cannot_undo': 'the deploy cannot be undone: {conflicts}',
  'deploy.target_needs_path': '{prefix}:PATH needs the project folder after the colon',
  'deploy.unknown_target': 'unknown target {target}: use claude, claude-project:PATH, codex, agents:PATH, gemini, gemini-project:PATH, opencode, opencode-project:PATH or a folder',
  'deploy.no_target': 'say where to deploy: --to claude | codex | agents:PATH | … | a folder',
  'deploy.manifest_not_json': '{file} is not valid JSON ({detail}): it records what Skillbench placed in this folder; restore it (undo the last deploy) or remove it to start over',
  'deploy.manifest_foreign': '{file} was not written by this version of Skillbench: refusing to deploy into this folder',
  // what is wrong in deploy-profiles.json ({reason} of deploy.config_invalid)
  'deployjson.not_json': '{file} is not JSON ({detail})',
  'deployjson.not_object': '{file} is not an object',
  'deployjson.bad_version': '{file}: version {version} is not one this Skillbench reads ({expected})',
  'deployjson.profiles_not_object': '{file}: "profiles" is not an object',
  'deployjson.bad_profile_name': '{file}: {name} is not a profile name (letters, digits, . _ -)',
  'deployjson.profile_not_object': '{file}: profile {name} is not an object',
  'deployjson.profile_list': '{file}: profile {name}: "{field}" must be a list of non-empty texts',
  'deployjson.bad_selector': '{file}: profile {name}: {selector} is not a selector (NAME, tag:TAG, collection:NAME or *)',
  'deployjson.disabled_not_object': '{file}: "disabled" is not an object',
  'deployjson.disabled_empty_target': '{file}: "disabled" has an empty target',
  'deployjson.disabled_list': '{file}: "disabled" of {target} must be a list of non-empty texts',
  // converting between skill formats
  'convert.outside': 'refusing to write outside {root}: {path}',
  'convert.link_outside': 'a symbolic link leads outside {root}: {path}',
  // the MCP server in proposal mode
  'mcp.not_in_proposal_mode': '{what} is not allowed in proposal mode',
  'mcp.what_create': 'creating a skill',
  'mcp.what_restore': 'restoring a skill',
  'mcp.what_write': 'writing a file',
  // the Agent Skills rules a SKILL.md is checked against (skillbench validate, install)
  'skillmd.name_missing': 'name is missing (required: lowercase letters, digits and hyphens, at most 64 characters)',
  'skillmd.name_not_string': 'name must be a string, got {value}',
  'skillmd.name_length': 'name must be 1–{max} characters, it has {n}',
  'skillmd.name_not_kebab': 'name "{name}" is not kebab-case: use only lowercase letters, digits and single hyphens, not at the start or end (e.g. "{example}")',
  'skillmd.name_not_folder': 'name "{name}" must match its folder name "{folder}"',
  'skillmd.name_reserved_word': 'name "{name}" contains a reserved word ("anthropic" or "claude") that some hosts refuse',
  'skillmd.description_missing': 'description is missing (required: what the skill does and when to use it, at most 1024 characters)',
  'skillmd.description_not_string': 'description must be a string, got {value}',
  'skillmd.description_empty': 'description is empty',
  'skillmd.description_too_long': 'description is {n} characters, the limit is {max}',
  'skillmd.description_tags': 'description contains XML/HTML tags, which some hosts refuse',
  'skillmd.license_not_string': 'license must be a string (a license name or the name of a bundled license file)',
  'skillmd.compatibility': 'compatibility must be a string of 1–{max} characters',
  'skillmd.allowed_tools': 'allowed-tools must be a space-delimited string of tool names',
  'skillmd.metadata_not_mapping': 'metadata must be a mapping of keys to values',
  'skillmd.metadata_value': 'metadata.{key} is not a string (the spec expects string values)',
  'skillmd.unexpected_key': 'unexpected top-level key "{key}" (allowed: {allowed}); move it under metadata',
  'skillmd.body_long': 'body has {n} lines; keep SKILL.md under 500 lines and move details to references/',
  // the AGIAgent skill_*.md rules (skillbench validate)
  'agiagent.bad_skill_id': 'skill_id must be a string of digits (a unix timestamp), got {value}',
  'agiagent.not_string': '{key} must be a string',
  'agiagent.quality_range': 'quality_index must be a number between 0 and 1, got {value}',
  'agiagent.fetch_count': 'fetch_count must be a whole number ≥ 0, got {value}',
  'agiagent.task_dirs': 'task_directories must be a list of folder names',
  'agiagent.last_used_at': 'last_used_at must be null or an ISO date string',
  'agiagent.not_date': '{key} is not an ISO-8601 date: {value}',
  'agiagent.not_mapping': '{key} must be a mapping',
  'validate.duplicate_id': 'duplicate skill_id {id}: also used by {paths}',
  'validate.agiagent_in_skillmd': 'an AGIAgent skill_*.md file in a SKILL.md library: Claude Code, Codex and other Agent Skills agents never load it (convert it into <name>/SKILL.md with `skillbench import`)',
  'validate.index_stale': '{file} is out of date with the SKILL.md folders (an import or export regenerates it)',
  // the MAS {name}_config.yaml rules (skillbench validate)
  'masconfig.guide_missing': 'use_guide is missing or not a mapping (needs skill_name and description)',
  'masconfig.prompt_missing': 'use_prompt is missing or not a mapping (needs skill_name, skill_prompt and return_format)',
  'masconfig.field_empty': '{field} must be a non-empty string',
  'masconfig.return_format': 'use_prompt.return_format must be a string',
  'masconfig.names_differ': 'use_guide.skill_name "{guide}" differs from use_prompt.skill_name "{prompt}"',
  'masconfig.file_name': 'skill_name "{name}" does not match the file name "{file}_config.yaml"',
  // skill file parsing (why a file does not load or save)
  'parse.not_utf8': 'not valid UTF-8: the file is left untouched and will not be rewritten',
  'parse.not_utf8_in': '{path}: not valid UTF-8: the file is left untouched and will not be rewritten',
  'parse.no_front_matter': 'no front matter: the file must start with a line "---"',
  'parse.not_closed': 'front matter is not closed: no second "---" line',
  'parse.language_refused': 'front matter language "{lang}" is refused: only YAML is read, code never runs',
  'parse.too_large': 'front matter is larger than {kb} KB',
  'parse.nul_byte': 'front matter contains a NUL byte',
  'parse.not_mapping': 'front matter must be a mapping of keys to values',
  'parse.yaml': 'invalid YAML: {problem}',
  'parse.yaml_at': 'invalid YAML: {problem} (at line {line}, column {column})',
  'parse.duplicate_key': 'duplicate key "{key}"',
  'parse.alias': 'YAML aliases (*name) are not allowed in skill front matter',
  'parse.anchor': 'YAML anchors (&name) are not allowed in skill front matter',
  'parse.tag': 'YAML tag {tag} is not allowed in skill front matter',
  // what the YAML parser found ({problem} of parse.yaml); yaml.other keeps the parser's own words
  'yaml.nested_too_deep': 'nested too deeply to read',
  'yaml.duplicate_key': 'a duplicate key (each key may appear once)',
  'yaml.bad_indent': 'the indentation is wrong',
  'yaml.tab_indent': 'a tab is used for indentation (use spaces)',
  'yaml.missing_char': 'something is missing: a closing quote or bracket, or a value after a key',
  'yaml.bad_escape': 'a double-quoted string has a bad escape',
  'yaml.unexpected': 'unexpected text here',
  'yaml.multiline_key': 'a key spans several lines',
  'yaml.nested_in_compact': 'a mapping or list is nested on the line of its key (start it on the next line)',
  'yaml.block_in_flow': 'a block value inside [ ] or { }',
  'yaml.bad_scalar_start': 'a value starts with a reserved character (quote it)',
  'yaml.several_documents': 'more than one YAML document',
  'yaml.key_too_long': 'a key is longer than 1024 characters',
  'yaml.misplaced_alias': 'an alias, anchor or tag is misplaced',
  'yaml.other': '{text}',
  // base URL and the model server
  'url.empty': 'the base URL is empty',
  'url.not_a_url': 'the base URL is not a URL (it should look like {example})',
  'url.not_http': 'the base URL must start with http:// or https://',
  'url.no_host': 'the base URL has no host name',
  'url.blocked_port': "the base URL's port is blocked by the runtime for safety (a 'bad port'); use the endpoint's real port",
  'url.bad_port': "port {port} is blocked by the runtime for safety (a 'bad port'); use the endpoint's real port",
  'llm.unreachable': 'cannot reach the model server',
  'llm.unreachable_because': 'cannot reach the model server: {cause}',
  'llm.unreachable_retried': 'cannot reach the model server: {cause} (after {attempts} attempts)',
  'llm.unreachable_after': 'cannot reach the model server (after {attempts} attempts)',
  'llm.fetch_failed': 'fetch failed ({detail})',
  'llm.fetch_failed_plain': 'fetch failed',
  'llm.timeout': 'model request timed out after {ms} ms',
  'llm.timeout_retried': 'model request timed out after {ms} ms (after {attempts} attempts)',
  'llm.auth': 'model server refused the credentials ({status}): check the API key',
  'llm.rate_limited': 'model server rate-limited the request (429): {detail}',
  'llm.rate_limited_retried': 'model server rate-limited the request (429) (after {attempts} attempts): {detail}',
  'llm.server': 'model server error {status}: {detail}',
  'llm.server_retried': 'model server error {status} (after {attempts} attempts): {detail}',
  'llm.rejected': 'model server rejected the request ({status}): {detail}',
  'llm.cancelled': 'model request cancelled',
  'llm.bad_base_url': 'invalid model base URL: {url}',
  'llm.no_model': 'no model name configured (set --model or the LLM settings)',
  'llm.no_model_set': 'no model name is set',
  'llm.unexpected': 'unexpected model answer: {detail}',
  'llm.no_choices': 'the model answered without a message (no choices)',
  'llm.answered': 'The model answered: {text}',
  'llm.mode_needs_client': 'mode openai needs a model client',
  'reflect.no_operation': 'the model gave no OPERATION: create, enhance or none',
  'reflect.enhance_not_candidate': 'the model chose to enhance a skill that is not a candidate ({id})',
  'reflect.enhance_no_content': 'the model chose enhance but gave no CONTENT',
  'reflect.no_reflection': 'the model answered without a reflection',
  // review: proposals, plans, undo
  'review.no_plan': 'no pending plan in this library: run `skillbench curate` first',
  'review.applied_already': 'proposal {id} is already applied',
  'review.rejected_run_again': 'proposal {id} was rejected; run curate again to get a fresh plan',
  'review.applied_use_undo': 'proposal {id} is applied: use undo',
  'review.no_proposal_plan': 'no proposal {id} in the pending plan (see `skillbench proposals`)',
  'review.no_proposal': 'no proposal {id} in the pending plan',
  'review.no_proposal_queue': "no proposal {id} in this library's review queue",
  'review.nothing_applied': 'nothing applied with id {id} in the journal',
  'review.undone_already': '{id} is already undone',
  'review.changed_since_proposal': '{path} changed on disk since the proposal was made',
  'review.cannot_undo': 'cannot undo {id}: {conflicts}. Undo would overwrite those changes; revert them by hand first.',
  'review.before_differs': "the \"before\" text of {path} differs from the proposal's",
  'review.not_changed_by': 'the proposal does not change {path}',
  'review.edit_invalid': 'the edited {path} is not a valid skill file: {reason}',
  'review.edit_keeps': 'the proposal keeps {path}: an edit cannot remove it',
  'review.removal_is_move': '{path} would be deleted: a removal must be a move to legacy/',
  'review.asks_review': "proposal {id} asks for a review: edit the skill in the review (the app's diff view) and accept to save it, or reject it to keep the skill as it is",
  'review.bookkeeping_path': '{path}: the .skillbench folder is not part of the library',
  'review.path_twice': '{path} appears twice in one proposal',
  'review.change_empty': '{path}: a change needs a before or an after',
  'review.rollback_failed': '{reason}; rolling back also failed: {problems}',
  'review.changes_nothing': 'proposal {id} changes nothing',
  'review.is_deploy': "{id} is a deploy: undo it with `skillbench undo {record}` or in the app's History",
  'review.memory_no_file': 'proposal {id} does not say which memory file it writes',
  'review.memory_no_entry': 'proposal {id} adds no entry to {file}: reject it instead',
  'review.memory_holds_entry': '{file} in {workspace} already holds this entry (added since the proposal was made): nothing to apply, reject the proposal',
  'review.memory_holds_entries': '{file} in {workspace} already holds these entries (added since the proposal was made): nothing to apply, reject the proposal',
  'review.memory_record_unclear': 'journal record {id} does not say what it wrote to memory',
  'review.memory_cannot_undo': 'cannot undo {id}: {entries} no longer in {files} (edited or removed since)',
  'review.not_pending_id': "'{id}' is not a pending-proposal id",
  'review.no_pending': 'no pending proposal {id}',
  'review.not_a_proposal': '{path} is not a proposal',
  'review.proposal_is': 'proposal {id} is {status}',
  'review.proposal_not_pending': 'proposal {id} is not pending',
  'review.rejected_stays': 'proposal {id} was rejected; it stays rejected until one of its skills changes',
  'review.rejected_stays_by': 'proposal {id} was rejected ({date} by {by}); it stays rejected until one of its skills changes',
  'review.unresolved_marks': 'proposal {id} still marks places changed on both sides (<<<<<<< … >>>>>>>) in {paths}: edit the result to keep what you want, then accept',
  'review.plan_unreadable': '.skillbench/plan.json is unreadable ({detail}): run `skillbench curate` again',
  // the review engine, the skill tools, sync notes and install lines (issue 40 part 4: engine and tools side)
  'text.list': '{first}; {rest}',
  'review.recover_unreadable': '{name}: unreadable transaction intent set aside',
  'review.recover_failed': '{id}: {problems}',
  'review.undo_neither': '{path} matches neither its old nor its new text',
  'review.undo_move_unclear': 'cannot tell whether {from} → {to} happened (both or neither exist)',
  'review.plan_unknown_format': 'unknown format',
  'review.bad_proposal_id': "bad proposal id '{id}'",
  'review.pending_full': '{max} proposals already wait for review in this library: review them in Skillbench before proposing more',
  'review.pending_id_taken': "proposal id '{id}' is taken",
  'tool.invalid_id': 'invalid skill_id {id}: an id is 1–20 digits',
  'tool.query_empty': 'query must be a non-empty string',
  'tool.library_unreadable': 'cannot read the skill library: {reason}',
  'tool.use_not_recorded': 'the use of the found skills could not be recorded: {reason}',
  'tool.rating_range': 'rating must be a number between 0 and 1 (got {value}); nothing was changed',
  'tool.edit_mode': 'edit_mode must be one of {modes} (got {value})',
  'tool.code_edit_not_string': 'code_edit must be a string',
  'tool.code_edit_too_long': 'code_edit is longer than {max} characters',
  'tool.old_code_needed': 'lines_replace needs old_code: the exact text to replace',
  'tool.old_code_not_found': 'old_code was not found in the skill body; nothing was changed',
  'tool.old_code_ambiguous': 'old_code occurs {n} times in the skill body; give more surrounding text so it matches exactly once',
  'tool.no_workspace': 'no workspace folder was given to copy files from',
  'tool.file_paths_list': 'file_paths must be a list of workspace-relative paths',
  'tool.args_not_object': 'tool arguments must be a JSON object',
  'tool.unknown': 'unknown tool {name}',
  'tool.disabled': 'Skill tools are only available when long-term memory is enabled',
  'tool.workspace_not_found': 'workspace folder not found: {path}',
  'tool.copied': 'Copied {n} file(s) to {dir}',
  'tool.copied_unchanged': '{n} already backed up',
  'tool.copied_skipped': 'skipped {n}: {files}',
  'tool.skipped_file': '{path} ({reason})',
  'copy.too_many': 'more than {max} files in one call',
  'copy.total_cap': 'total size cap of {mb} MB reached',
  'copy.different_exists': 'a different {path} already exists (never overwritten)',
  'copy.not_utf8': 'not valid UTF-8 text',
  'copy.not_a_path': 'not a path',
  'copy.outside': 'outside the workspace',
  'copy.not_allowed': 'outside the workspace or not allowed: {why}',
  'copy.extension': 'only code and document files are copied ({ext} is not one)',
  'copy.no_extension': 'no extension',
  'copy.not_found': 'not found in the workspace',
  'copy.symlink': 'symbolic link: never copied',
  'copy.not_regular': 'not a regular file',
  'copy.real_path_outside': 'its real path is outside the workspace (symbolic link in a folder)',
  'copy.hard_link': 'hard link: never copied',
  'copy.larger_than': 'larger than {kb} KB',
  'copy.cannot_open': 'cannot be opened (changed during the copy?)',
  'copy.changed': 'changed during the copy',
  'copy.other': '{reason}',
  'install.fetching': 'Fetching {source}…',
  'install.fetching_at': 'Fetching {source} at {ref}…',
  'install.fetching_locked': 'Fetching {name}: {at}…',
  'install.found': 'Found {n} skill(s) at {commit}; checking them…',
  'install.note_as_written': 'note: {name}: {note} (installed as written)',
  'install.note_risk_allowed': 'note: {name}: {n} high audit finding(s), installed as allowed by {by}',
  'install.note_risk_allowed_lock': 'note: {name}: {n} high audit finding(s), installed as allowed by {by} ({file})',
  'install.writing': 'Writing into {dir}…',
  'index.not_updated': 'index.json could not be updated: {reason}',
  'index.not_ours': '{file} exists and was not written by skillbench: left as it is',
  'index.left_as_is': 'index.json left as it is',
  'sync.status_no_folder': 'the library folder does not exist',
  'sync.status_not_repo': 'not a git repository',
  'sync.status_inside': 'inside the repository {top}',
  'sync.status_detached': 'not on a branch',
  'sync.status_no_remote': 'no remote',
  // fetching skills from git (SourceError)
  'source.empty': 'give a git URL or a local repository folder',
  'source.dash': 'not a source: {source} (a git URL or folder cannot start with "-")',
  'source.control_char': 'the source contains a control character',
  'source.bad_scheme': 'not a git URL: {source} (use https://, ssh://, git://, file:// or a local repository folder)',
  'source.remote_helper': 'not a git URL: {source} (remote helpers are not used)',
  'source.no_folder': 'not a git URL, and no folder {path} exists',
  'source.no_folder_github': 'not a git URL, and no folder {path} exists (for GitHub, give the whole URL: https://github.com/{repo})',
  'source.is_file': '{path} is a file, not a git repository',
  'source.not_repo': '{path} is not a git repository (to bring in skills from a plain folder, use skillbench import --from {path})',
  'source.gone_upstream': '{path} is no longer in {repo} at {ref} ({commit}): left as it is',
  'source.the_skill': 'the skill',
  'source.upstream_unparsable': 'the upstream SKILL.md at {commit} does not parse: left as it is',
  'source.local_unparsable': '{path} does not parse: fix it first',
  'source.timeout': 'git took longer than {seconds} s and was stopped (a very large repository or a slow network; SKILLBENCH_GIT_TIMEOUT_MS raises the limit)',
  'source.cancelled': 'cancelled',
  'source.git_missing': 'git is not installed (or not on PATH): Skillbench uses the system git to fetch skills; install git and try again',
  'source.git_not_started': 'git could not be started: {detail}',
  'source.repo_too_big': 'the repository is larger than {mb} MB and was not fetched (give --path to a smaller repository, or raise SKILLBENCH_GIT_MAX_MB)',
  'source.auth': 'the repository needs credentials (it may be private): Skillbench never asks for a password; set up a git credential helper or an SSH key that works without a prompt, then try again (git said: {detail})',
  'source.unreadable_repo': 'not a git repository that can be read: {detail}',
  'source.no_revision': 'no such branch, tag or commit in the repository: {detail}',
  'source.git_failed': 'git {command} failed: {detail}',
  'source.no_message': 'no message',
  'source.no_lock': "no {file} in {dir}: copy the team's lock there (or install without --locked to make one)",
  'source.lock_not_file': '{file} is not a regular file (a link is not followed)',
  'source.wrong_commit': '{source} gave commit {got} for {wanted}',
  'source.cache_symlink': '{dir} is a symbolic link (→ {to}): Skillbench never writes its cache through a link; remove the link, or set SKILLBENCH_CACHE_DIR to a real folder',
  'source.cache_not_folder': '{dir} is not a folder: Skillbench keeps fetched repositories there; move that file away',
  'source.no_default_branch': '{repo} has no default branch (an empty repository?): give --ref',
  'source.no_ref': 'no branch or tag "{ref}" in {repo}',
  'source.too_many_files': 'the repository has more than {n} files under {folder}: give --path to the folder that holds the skills',
  'source.skills_too_big': 'the skills to install hold {mb} MB of files, more than {max} MB: install fewer with --skill NAME',
  'source.no_subdir': 'no folder {folder} in {repo}',
  'source.lock_mismatch': '{file}: {skills}; nothing was installed',
  // installing skills from git
  'install.name_taken': 'a skill named {name} already exists in the library ({path}): not overwritten',
  'install.already_installed': 'already installed from {repo} (commit {commit}) at {path}: skillbench update brings its upstream changes',
  'install.folder_taken': '{name} already exists in the library folder (not a skill Skillbench can read): not overwritten',
  'install.no_such_skill': 'no skill named {name} under {folder} of {repo}',
  'install.no_skills': 'no SKILL.md found under {folder} of {repo}',
  'install.repo_root': 'the repository root',
  'install.root_folder': '(repository root)',
  'install.its_root': 'its root',
  'install.skipped_in': '{where}: {reason}',
  'install.same_name': 'another skill of this repository ({first}) has the same name',
  'install.locked_retired': 'retired in the library this skills.lock comes from (restore it there, or install {source} --path {path} to take it anyway)',
  'install.too_large': '{path} is larger than {mb} MB',
  'install.does_not_parse': 'SKILL.md does not parse: {reason}',
  'install.fails_validation': 'SKILL.md fails validation: {problems}',
  'install.link_outside': 'symbolic link {link} points outside the repository (→ {target}): refused',
  'install.locked_already': 'already installed at the locked commit {commit}',
  'install.not_installed': 'not installed: {reason}',
  'install.bad_subdir': '--path must be a folder inside the repository, got {path}',
  'install.reserved_folder': 'it lies in a folder named "{folder}", which a library keeps for its own bookkeeping: not installed (take it with --path {dir})',
  'install.link_unfollowed': 'symbolic link {link} could not be followed',
  'install.link_to_folder': 'symbolic link {link} points to a folder ({dest}): links to folders are not copied',
  'install.link_nowhere': 'symbolic link {link} points to nothing ({dest})',
  'install.link_submodule': 'symbolic link {link} points into a submodule',
  'install.submodule_left_out': 'submodule {rel} is not included',
  'install.skillmd_problem': 'SKILL.md {reason}',
  'install.skillmd_too_large': 'SKILL.md is larger than {bytes} bytes',
  'install.skillmd_unread': 'SKILL.md could not be read from the repository',
  'install.bad_folder_name': 'SKILL.md name "{name}" is not a valid folder name',
  'install.locked_mismatch': 'installed here at {here}, but {file} says {locked}: run skillbench update, or move the skill aside and install --locked again',
  // memory (lessons and preferences)
  'memory.no_folder': 'this library has no memory folder yet: choose one on the Memory screen',
  'memory.auto_proposed': 'Memory: {n} proposal(s) from the same tasks (lessons, preferences, tool notes), waiting for review in Curate',
  'memory.auto_no_library': 'Memory: the tasks of {user} were not learned from: that user has no library or memory folder yet',
  'memory.auto_failed': 'Memory: the tasks of {user} were not learned from: {reason}',
  'memory.lessons_not_root_user': 'lessons are learned from the tasks of a data-root user; this library is a folder opened by hand',
  'memory.not_root_user': 'preferences are found in the tasks of a data-root user; this library is a folder opened by hand',
  'memory.changed_on_disk': '{name} changed on disk since it was opened: reload it and apply your edit again',
  'memory.too_large': '{file} is over the {bytes}-byte limit for memory files',
  'memory.would_be_too_large': '{name} would be over the {bytes}-byte limit for memory files',
  'memory.not_memory_file': "'{name}' is not a memory file ({names} or logs/YYYY-MM-DD.md)",
  'memory.not_memory_file_short': "'{name}' is not a memory file",
  'memory.nothing_to_summarise': 'no informative line to summarise',
  'memory.empty_summary': 'the model returned an empty summary',
  'memory.pending_malformed': 'the pending-preferences file is not {"version":1,"items":[…]}',
  'memory.pending_not_json': 'the pending-preferences file is not JSON ({detail})',
  'memory.bad_pending_id': "'{id}' is not a pending-preference id (4+ hex characters)",
  'memory.no_pending': "no pending preference with id '{id}'",
  'memory.ambiguous_id': "id '{id}' is ambiguous: {ids}",
  'memory.procedural_format': 'a procedural entry is "tool: what happened" (got "{entry}")',
  'memory.procedural_needs_tool': 'a procedural record needs the tool name',
  'memory.procedural_needs_reason': 'a procedural record needs the failure reason',
  'memory.hallucinated_needs_tools': 'a hallucinated-tool lesson needs the list of registered tools',
  'memory.critic_empty': 'the critic suggestion is empty',
  'memory.lesson_empty': 'the lesson text is empty',
  'memory.preference_empty': 'the preference is empty',
  // progress of reflection
  'reflect.found': 'Found {n} tasks to process',
  'reflect.processing': '[{index}/{total}] Processing {task}...',
  'reflect.processing_finished': '[{index}/{total}] Processing {task} (finished since its skill was written unfinished)...',
  'reflect.processing_path': 'Processing: {path}',
  'reflect.update_proposed_for': 'Update proposed for {path} (task {task} finished): {id}',
  'reflect.finished_update': 'finished since its skill was written unfinished: update of "{title}" proposed for review ({id})',
  'reflect.finished_update_before': 'the update of "{title}" for the finished task was proposed before ({id})',
  'reflect.finished_update_reason': 'the task has finished since this skill was written from it unfinished: its steps and outcome are replaced by the finished task',
  'reflect.reading': 'Reading the trace: {requests} request(s), {calls} tool call(s), {errors} error(s)',
  'reflect.summarising': 'Summarising the trace (offline rules)',
  'reflect.waiting': 'Waiting for the model ({seconds} s)',
  'reflect.writing': 'Writing the skill "{title}"',
  'reflect.generated': 'Skill generated: {path}',
  'reflect.generated_redacted': 'Skill generated: {path} — {note}',
  'reflect.redacted': '{n} secret(s) printed in the session redacted from the skill ({kinds})',
  'reflect.already': 'already reflected',
  'reflect.enhancement_pending': 'enhancement pending review',
  'reflect.enhancement_proposed': 'enhancement of "{title}" proposed for review ({id})',
  'reflect.nothing_to_change': 'nothing to change: {reason}',
  'reflect.no_skill': 'No skill: {reason}',
  'reflect.why_greeting': 'greeting',
  'reflect.why_no_work': 'no work done',
  'reflect.why_little_work': 'too little work for a skill',
  'reflect.why_unfinished': 'unfinished',
  'reflect.why_follow_up': 'follow-up of an earlier task',
  'reflect.why_follow_up_of': 'follow-up of {task}',
  'reflect.totals': 'created {created}, skipped {skipped}, failed {failed}',
  'reflect.totals_cancelled': 'created {created}, skipped {skipped}, failed {failed}, cancelled',
  'reflect.auto_enhance': 'Auto-enhance: {n} new finished task(s) in {root}',
  // progress of a sync
  'sync.checking': 'Checking the repository',
  'sync.committing': 'Recording the local changes',
  'sync.fetching': 'Fetching {remote}',
  'sync.joining': 'Joining {n} change(s) from {remote}',
  'sync.applying': 'Writing the changes that arrived',
  'sync.finishing': 'Finishing the sync that was interrupted',
  'sync.sending': 'Sending {n} change(s) to {remote}',
  'sync.moved_on': '{remote} moved on while pushing (someone pushed first): joining again',
  // why a sync cannot run (SyncError)
  'sync.already_in_repo': '{root} is already in a git repository ({inside}): add the remote with `git remote add origin {url}` if it has none, then run `skillbench sync --library {library}`',
  'sync.bad_url': 'not a repository URL: {url}',
  'sync.not_repo': "{root} is not a git repository: share it with `skillbench sync --init URL --library {library}`, or clone the team's library with git clone",
  'sync.inside_repo': 'the library {root} is inside the git repository {top}: sync works on a library that is the top folder of its own repository',
  'sync.detached': 'the library is not on a branch (detached HEAD): check out the branch to share (git switch main), then sync',
  'sync.no_remote': "the library's repository has no remote to sync with: `git remote add origin URL` (or `skillbench sync --init URL`)",
  'sync.in_progress': 'git is in the middle of {what} in {root}: finish it (or abort it: git rebase --abort / git merge --abort) before syncing; nothing was changed',
  'sync.op_rebase': 'a rebase',
  'sync.op_rebase_apply': 'a rebase (or git am)',
  'sync.op_merge': 'a merge',
  'sync.op_cherry_pick': 'a cherry-pick',
  'sync.op_revert': 'a revert',
  'sync.op_bisect': 'a bisect',
  'sync.identity': 'git does not know who you are, and every shared change says whose it is: set `git config --global user.name "Your Name"` and `git config --global user.email you@example.com`, then sync again',
  'sync.object_missing': 'git object {oid} for {path} is missing: run git fsck, then sync again',
  'sync.branch_moved': 'the branch moved while syncing (now {head}): sync again',
  'sync.busy': 'another sync of this library is running: {reason}',
  'sync.kept_changing': 'the library kept changing while syncing: sync again when it is quieter',
  'sync.remote_kept_moving': '{remote} kept moving on while pushing ({tries} tries): sync again',
  'sync.not_intent': '{file} is not a sync intent',
  // what a sync tells beside its counts (notes)
  'sync.note_locks_removed': 'removed git lock files a killed sync left: {files}',
  'sync.note_kept_in_history': '{path}: changed on both sides; the local version (not text) is kept in git history at {commit}',
  // progress of curation
  'curate.loaded': 'Loaded {n} skills',
  'curate.step1': 'Step 1: Merging similar skills...',
  'curate.step2': 'Step 2: Cross-skill integration...',
  'curate.step3': 'Step 3: Cleaning unused skills...',
  'curate.comparing': 'comparing skills',
  'curate.comparing_unchanged': 'comparing skills (unchanged since the last run)',
  'curate.comparing_updated': 'comparing skills (updated since the last run, {n} compared again)',
  'curate.pairs_kept': 'Similar pairs kept from the last run (no skill changed)',
  'curate.pairs_updated': 'Similar pairs brought up to date: {n} skill(s) compared again, the others kept from the last run',
  'curate.consolidating': 'consolidating clusters',
  'curate.reading': 'reading skills',
  'curate.checking': 'checking skills',
  // per-skill progress (issue 37): the step's work, how far, and the skill at hand
  'curate.progress_count': '{message} — {done}/{total}',
  'curate.progress_skill': '{message} — {done}/{total} · {skill}',
  'curate.usage_unwatched': "Nothing has watched this library's skills being used (no agent log names them, no query recorded, no fetch_count kept): no skill is judged unused",
  'curate.proposed_merges': '✅ Proposed {n} merge(s)',
  'curate.proposed_consolidations': '✅ Proposed {n} consolidation(s)',
  'curate.proposed_cleanups': '✅ Proposed {n} cleanup(s)',
  'curate.proposed_reviews': '✅ Proposed {n} review(s) of skills whose tasks went wrong more often',
  'curate.proposals': '{n} proposals',
  'curate.reading_usage': "Reading the agents' logs for real usage...",
  'curate.reading_logs': 'reading {agent} logs in {dir}',
  'curate.usage_not_read': 'usage not read ({reason}): cleanup goes by fetch_count alone'
} as const

/** A stable code of the table above. */
export type MessageCode = keyof typeof MESSAGE_TEMPLATES

/** A param's value: text, a number, or a coded message rendered in the reader's language. */
export type MessageParam = string | number | MessageRef

export type MessageParams = { [name: string]: MessageParam }

/** A message by code: what crosses every transport beside (or instead of) its English text. */
export interface MessageRef {
  messageCode: MessageCode
  params: MessageParams
}

/** A coded message with its English text already rendered (what error constructors take). */
export interface CodedText extends MessageRef {
  text: string
}

/** True for a code of the table (codes from another version of Skillbench are not). */
export function isMessageCode(value: unknown): value is MessageCode {
  return typeof value === 'string' && Object.hasOwn(MESSAGE_TEMPLATES, value)
}

/** True for `{ messageCode, params }` with a known code and plain-object params. */
export function isMessageRef(value: unknown): value is MessageRef {
  if (!value || typeof value !== 'object') return false
  const v = value as Partial<MessageRef>
  return isMessageCode(v.messageCode) && Boolean(v.params) && typeof v.params === 'object' && !Array.isArray(v.params)
}

/**
 * Fills `{name}` placeholders of a template: a text param as it is, a coded param through `lookup` (the same
 * language), an unknown placeholder left as written. `lookup` gives a template for a code (English by default).
 */
export function fillTemplate(template: string, params: MessageParams, lookup: (code: MessageCode) => string = englishTemplate): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole
    const value = params[name]!
    if (typeof value === 'object') return isMessageRef(value) ? fillTemplate(lookup(value.messageCode), value.params, lookup) : whole
    return String(value)
  })
}

function englishTemplate(code: MessageCode): string {
  return MESSAGE_TEMPLATES[code]
}

/** English texts of messages without parameters, filled once: progress sends one per skill (thousands a run). */
const plainTexts = new Map<MessageCode, string>()

function hasNoParams(params: MessageParams): boolean {
  for (const _ in params) return false
  return true
}

/** The English text of a coded message. */
export function englishText(ref: MessageRef): string {
  if (!hasNoParams(ref.params)) return fillTemplate(MESSAGE_TEMPLATES[ref.messageCode], ref.params)
  let text = plainTexts.get(ref.messageCode)
  if (text === undefined) plainTexts.set(ref.messageCode, (text = fillTemplate(MESSAGE_TEMPLATES[ref.messageCode], ref.params)))
  return text
}

/** A coded message with its English text, e.g. `throw badRequest(coded('path.folder_not_found', { path }))`. */
export function coded(messageCode: MessageCode, params: MessageParams = {}): CodedText {
  const ref = { messageCode, params }
  return { ...ref, text: englishText(ref) }
}

/** Several coded messages (at least one) as one, joined by "; " in English (text.list, nested): each in the reader's language. */
export function codedList(items: readonly CodedText[]): CodedText {
  if (items.length === 1) return items[0]!
  let ref: MessageRef = refOf(items[items.length - 1]!)
  // built from the end without rendering each level (a long list stays linear); the English is the items' joined
  for (let i = items.length - 2; i >= 0; i--) ref = { messageCode: 'text.list', params: { first: refOf(items[i]!), rest: ref } }
  return { ...ref, text: items.map((t) => t.text).join('; ') }
}

/** A progress line: its English `message` beside its code and params, so a UI words it by code. */
export interface CodedLine extends MessageRef {
  message: string
}

/** A progress line by code, e.g. `progress({ step: 1, ...codedLine('curate.loaded', { n }) })`. */
export function codedLine(messageCode: MessageCode, params: MessageParams = {}): CodedLine {
  const c = coded(messageCode, params)
  return { message: c.text, messageCode, params }
}

/** The `{messageCode, params}` of a coded text (without its English), for data that travels. */
export function refOf(c: CodedText): MessageRef {
  return { messageCode: c.messageCode, params: c.params }
}
