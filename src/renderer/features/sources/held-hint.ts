/**
 * A held skill's hint in the app's words (pure). The core's hint (held[].hint, install.held_*) is written for the
 * command line ("--allow-risk NAME installs it anyway") and the CLI's text and --json keep it so; in the Install
 * dialog the same choice is the skill's "Install … anyway" checkbox, so its code picks the app's own message. The
 * words of an older build (no code) are read back to their code first; a code this build has no app wording for is
 * shown as the core worded it.
 */
import type { HeldSkillInfo } from '../../../shared/api'
import { isMessageCode, type MessageCode } from '../../../shared/error-codes'
import { messageRefOf } from '../../../shared/message-match'
import type { Lang, Translate } from '../../i18n/i18n'
import type { MessageKey } from '../../i18n/messages'
import { translateLine } from '../../i18n/messages-errors'

/** The app's message for each held hint's code (install --locked's are the CLI's only today; worded for the app all the same). */
const APP_HINT: Partial<Record<MessageCode, MessageKey>> = {
  'install.held_allow_risk': 'install.heldHint.allowRisk',
  'install.held_lock_none': 'install.heldHint.lockNone',
  'install.held_lock_uncovered': 'install.heldHint.lockUncovered'
}

export function heldHintText(h: Pick<HeldSkillInfo, 'name' | 'hint' | 'messageCode' | 'params'>, t: Translate, lang: Lang): string {
  const ref = isMessageCode(h.messageCode) ? { messageCode: h.messageCode, params: h.params } : messageRefOf(h.hint)
  const key = ref ? APP_HINT[ref.messageCode] : undefined
  if (!ref || !key) return translateLine(h, h.hint, lang)
  // these hints' params are plain text (the skill's name, skills.lock, the source, the findings' places)
  const vars: Record<string, string | number> = { name: h.name }
  for (const [k, v] of Object.entries(ref.params ?? {})) if (typeof v === 'string' || typeof v === 'number') vars[k] = v
  return t(key, vars)
}
