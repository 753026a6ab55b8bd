import { describe, expect, it } from 'vitest'
import { coded, MESSAGE_TEMPLATES, refOf, type MessageCode } from '../../src/shared/error-codes'
import { ERRORS_ZH, translateMessage } from '../../src/renderer/i18n/messages-errors'

/**
 * Params the core fills with a word of the table (a coded message, Chinese in zh) instead of a path or a number:
 * each code, the param, and the words given to it (found with `grep -rn "coded('…_what\|_root\|…')"` in src/main).
 */
const WORD_PARAMS: Array<[MessageCode, string, MessageCode[]]> = [
  ['format.yaml_invalid', 'what', ['format.what_yaml_skill', 'format.what_learned', 'format.what_config']],
  ['format.not_mapping', 'what', ['format.what_learned', 'format.what_config']],
  ['format.front_matter', 'what', ['format.what_front_matter', 'format.what_agiagent']],
  ['path.not_absolute_or_url', 'what', ['path.what_source', 'path.what_target']],
  ['mcp.not_in_proposal_mode', 'what', ['mcp.what_create', 'mcp.what_restore', 'mcp.what_write']],
  ['skill.reserved_name', 'what', ['skill.reserved_legacy', 'skill.reserved_codes', 'skill.reserved_logs']],
  ['sync.in_progress', 'what', ['sync.op_rebase', 'sync.op_merge', 'sync.op_bisect']],
  ['source.gone_upstream', 'path', ['source.the_skill']],
  ['source.git_failed', 'detail', ['source.no_message']],
  ['source.fetch_failed', 'detail', ['source.no_message']],
  ['source.repo_not_found', 'detail', ['source.no_message']],
  ['source.too_many_files', 'folder', ['install.its_root']],
  ['install.no_such_skill', 'folder', ['install.repo_root']],
  ['install.no_skills', 'folder', ['install.repo_root']],
  ['install.skipped_in', 'where', ['install.root_folder']],
  ['install.same_name', 'first', ['install.its_root']],
  ['copy.extension', 'ext', ['copy.no_extension']],
  ['install.fetching_locked', 'at', ['install.at_commit', 'install.at_commit_path']],
  ['install.locked_at', 'at', ['install.at_commit', 'install.at_commit_path']],
  ['install.locked_at', 'reason', ['install.locked_no_skill']],
  ['install.locked_other_name', 'at', ['install.at_commit', 'install.at_commit_path']],
  ['install.locked_hash', 'at', ['install.at_commit', 'install.at_commit_path']],
  ['scan.not_regular', 'what', ['scan.what_fifo', 'scan.what_socket', 'scan.what_device']],
  ['scan.not_folder', 'what', ['scan.what_fifo', 'scan.what_socket', 'scan.what_device']],
  ['reflect.finished_update_before', 'status', ['reflect.proposed_pending', 'reflect.proposed_accepted', 'reflect.proposed_rejected', 'reflect.proposed_undone']],
  ['reflect.again_proposed_before', 'status', ['reflect.proposed_pending', 'reflect.proposed_accepted', 'reflect.proposed_rejected', 'reflect.proposed_undone']]
]

const CJK = '[\\u3000-\\u303f\\u4e00-\\u9fff\\uff00-\\uffef“”]'
/** A space with Chinese (or full-width punctuation) on both sides: Chinese typography has none there. */
const SPACE_IN_CHINESE = new RegExp(`${CJK} (?=${CJK})`)

describe('Chinese words as params', () => {
  it('sit in their sentence without a space between them and the Chinese around them', () => {
    for (const [code, param, words] of WORD_PARAMS) {
      expect(ERRORS_ZH[code], code).toContain(`{${param}}`)
      for (const word of words) {
        const params = Object.fromEntries([...MESSAGE_TEMPLATES[code].matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, m[1] === param ? refOf(coded(word)) : 'x']))
        const zh = translateMessage({ messageCode: code, params }, '', 'zh')
        expect(zh, `${code} with ${param} = ${word}`).not.toMatch(SPACE_IN_CHINESE)
      }
    }
  })

  it('reads as before with a path or a name in the same place (a space between Latin and Chinese stays)', () => {
    expect(translateMessage(coded('format.yaml_invalid', { what: refOf(coded('format.what_learned')), problem: 'x' }), '', 'zh')).toBe('学习到的技能不是有效的 YAML：x')
    expect(translateMessage(coded('source.too_many_files', { n: 5000, folder: 'skills/' }), '', 'zh')).toBe('仓库的“skills/”下有超过 5000 个文件：请用 --path 指向包含技能的文件夹')
    expect(translateMessage(coded('source.too_many_files', { n: 5000, folder: refOf(coded('install.its_root')) }), '', 'zh')).toBe('仓库的“其根目录”下有超过 5000 个文件：请用 --path 指向包含技能的文件夹')
    expect(translateMessage(coded('copy.extension', { ext: refOf(coded('copy.no_extension')) }), '', 'zh')).toBe('只复制代码和文档文件（不是这类：没有扩展名）')
    expect(translateMessage(coded('source.gone_upstream', { path: refOf(coded('source.the_skill')), repo: 'github.com/a/b', ref: 'main', commit: 'abc' }), '', 'zh')).toBe('该技能：已不在 github.com/a/b 的 main（abc）中，保持原样')
    // the slip this guards against, caught by the check above
    expect('YAML 技能 不是有效的 YAML').toMatch(SPACE_IN_CHINESE)
  })
})
