/**
 * What a user's request says about the task (pure): the request itself without the wrappers agents add,
 * whether it is a greeting, whether it continues the task before it, and its content words.
 */
import { oneLine } from './text-utils'

/** Codex puts attached files before the request: "# Files mentioned by the user: … ## My request for Codex: …". */
const CODEX_REQUEST = /^#\s*Files mentioned by the user:[\s\S]*?##\s*My request for Codex:\s*/i
/** `/namespace:command`, `/command` at the start (a slash command's name, not what was asked). */
const SLASH_COMMAND = /^\/[\w.-]+(?::[\w.-]+)?\s+/
/** Claude Code's thinking switches and agent mentions (`ultrathink`, `@"solution-architect (agent)"`). */
const THINK_WORD = /^(?:ultrathink|think harder|think hard|megathink)\b[\s,:.-]*/i
const AGENT_MENTION = /^@(?:"[^"\n]{1,80}"|[\w.-]{1,60})\s*/

/** The request as the user wrote it, without the wrappers and switches agents add. */
export function cleanRequest(text: string): string {
  let t = text.replace(CODEX_REQUEST, '').trim()
  for (let i = 0; i < 4; i++) {
    const next = t.replace(SLASH_COMMAND, '').replace(THINK_WORD, '').replace(AGENT_MENTION, '').trim()
    if (next === t) break
    t = next
  }
  return t
}

// Whole-request greetings, thanks and small talk: nothing here asks for work.
const GREETING_WORDS = [
  'hi', 'hello', 'hey', 'yo', 'hiya', 'howdy', 'good morning', 'good afternoon', 'good evening', 'morning',
  'how are you', "how's it going", 'what can you do', 'who are you', 'are you there', 'test', 'ping',
  'thanks', 'thank you', 'thx', 'ty', 'cheers', 'ok', 'okay', 'cool', 'nice', 'great', 'bye', 'goodbye', 'see you',
  '你好', '您好', '嗨', '哈喽', '哈啰', '在吗', '在不在', '早上好', '下午好', '晚上好', '早', '你是谁', '你能做什么',
  '谢谢', '多谢', '感谢', '好的', '好', '嗯', '收到', '再见', '拜拜', '测试'
]
const GREETING_PIECE = new RegExp(`^(?:${GREETING_WORDS.map(escapeRe).sort((a, b) => b.length - a.length).join('|')})(?![a-z])`, 'i')
const FILLER = /^[\s,，.。!！?？~～:：;；、…'"“”()（）\-—]+|^(?:there|you|again|a lot|so much|very much|all|everyone|啊|呀|吧|呢|哦|哈|哈哈|呀)(?![a-z])/iu
const EMOJI = /\p{Extended_Pictographic}|\u200d|\ufe0f/gu

/** True when the whole request is greetings, thanks or small talk ("你好", "hi!", "thanks, bye"). */
export function isGreeting(text: string): boolean {
  let t = oneLine(cleanRequest(text)).replace(EMOJI, '').trim()
  if (!t || t.length > 60) return false
  let pieces = 0
  for (let i = 0; i < 20 && t; i++) {
    const m = GREETING_PIECE.exec(t) ?? FILLER.exec(t)
    if (!m || m[0] === '') return false
    if (GREETING_PIECE.test(m[0])) pieces++
    t = t.slice(m[0].length)
  }
  return t === '' && pieces > 0
}

// A request that starts like this goes on with the task before it ("great, now also…", "继续").
const CONTINUATION_EN = [
  'continue', 'go on', 'keep going', 'carry on', 'proceed', 'resume', 'go ahead', 'do it', 'next', 'again', 'try again', 'retry',
  'yes', 'yep', 'yeah', 'sure', 'ok', 'okay', 'great', 'good', 'nice', 'perfect', 'awesome', 'excellent', 'cool', 'fine', 'lgtm',
  'looks good', "it's good", 'its good', 'it is good', "that's good", 'that is good', "that's great", 'sounds good', 'works',
  'thanks', 'thank you', 'thx', 'now', 'also', 'and', 'but', 'however', 'then', 'same', 'more context', 'one more thing',
  'what about', 'how about', 'instead', 'actually', 'not quite', 'almost', 'no', 'nope', 'wrong', 'revise', 'redo', 'undo',
  'the main idea is fine', 'the idea is fine', 'fix it', 'fix that', 'fix this', 'do the same', 'please continue'
]
const CONTINUATION_ZH = [
  '继续', '接着', '然后', '再', '还有', '另外', '此外', '同时', '也', '好的', '好', '可以', '不错', '很好', '非常好', '太好了', '谢谢',
  '但是', '不过', '可是', '不对', '不是', '错了', '改成', '换成', '改为', '重新', '重试', '再试', '就这样', '按这个', '照这个', '没问题'
]
const CONTINUATION = new RegExp(
  `^(?:(?:${CONTINUATION_EN.map(escapeRe).sort((a, b) => b.length - a.length).join('|')})(?![a-z0-9])|(?:${CONTINUATION_ZH.map(escapeRe)
    .sort((a, b) => b.length - a.length)
    .join('|')}))`,
  'i'
)

/** True when the request opens like a continuation of the task before it ("continue", "great, but…", "好的，再…"). */
export function startsAsContinuation(text: string): boolean {
  return CONTINUATION.test(oneLine(cleanRequest(text)).replace(/^[\s"'“(（-]+/u, ''))
}

const STOP = new Set(
  (
    'the a an and or but if then else for to of in on at by with from into onto about as is are was were be been being do does did done ' +
    'this that these those it its it\'s there here what which who whom how when where why can could should would will shall may might must ' +
    'i me my we our you your they them their he she his her not no yes so than too very just only also please let lets let\'s need needs ' +
    'want wants make sure some any all each every more most other such same own out up down over under again further once new use using ' +
    'get got have has had one two like well still now already'
  ).split(' ')
)

/** Distinctive words of a text (lower case, ≥ 3 chars, no stop words; each Han pair counts as a word). */
export function contentWords(text: string): Set<string> {
  return new Set(contentWordList(text).filter(Boolean))
}

/** The distinctive words of a text in the order they appear, repeats kept (phrases are read from this). */
export function contentWordList(text: string): string[] {
  const out: string[] = []
  for (const m of text.toLowerCase().matchAll(/[a-z0-9][a-z0-9_./-]*[a-z0-9]|[a-z0-9]|[\u3400-\u9fff]+|[^a-z0-9\u3400-\u9fff]+/gu)) {
    const w = m[0]
    if (/^[\u3400-\u9fff]/u.test(w)) {
      for (let i = 0; i + 1 < w.length; i++) out.push(w.slice(i, i + 2))
    } else if (/^[a-z0-9]/.test(w)) {
      if (w.length >= 3 && !STOP.has(w)) out.push(w.replace(/s$/, ''))
    } else if (/[.!?。！？\n]/u.test(w)) {
      out.push('') // a sentence ends: no phrase runs across it
    }
  }
  return out
}

/** How many words a request has (Han characters count two to a word). */
export function requestWords(text: string): number {
  const t = oneLine(cleanRequest(text))
  const latin = t.match(/[A-Za-z0-9][\w'./-]*/g)?.length ?? 0
  const han = t.match(/[\u3400-\u9fff]/gu)?.length ?? 0
  return latin + Math.ceil(han / 2)
}

// Claude Code's and Codex's words for a tool use the user declined at the permission prompt.
const PERMISSION = /(?:the user doesn't want to proceed with this tool use|tool use was rejected|user (?:rejected|declined|denied) (?:the|this) (?:tool|command|request)|permission (?:was )?denied by (?:the )?user|rejected by (?:the )?user|aborted by (?:the )?user|request interrupted by user for tool use)/i

/** True for an "error" that is only the user declining a tool use (a permission prompt, not a failure to learn from). */
export function isPermissionPrompt(error: string): boolean {
  return PERMISSION.test(error.slice(0, 400))
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
