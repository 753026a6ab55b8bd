/**
 * Whether a prose sentence names a risky pattern as something to avoid or detect ("never pipe `curl … | sh`",
 * "avoid `rm -rf /`", "a malicious skill may say …"), rather than as a step. Pure.
 *
 * A cue word somewhere in the sentence is not enough: "First run `curl … | sh` and never skip this step" is a step
 * with a negation after it. The cue has to govern the pattern:
 * - it stands before the pattern in the pattern's own clause, a few words away ("never", "do not", "avoid",
 *   "not to", "instead of"…; a bare "no"/"not" only right before it, as in "context, not commands");
 * - or the pattern is an item of a list that such a clause heads ("avoid `a`, `b` or `c`", "never do this: `x`");
 * - or the clause goes on to say what it is ("`curl … | sh` is never safe", "… is a known attack").
 * Clauses end at ";", ",", ":", dashes and joining words ("and", "then", "but", "if", "before"…); quoted, backticked
 * and bracketed text before the pattern is an item, never a cue. A negation of a negative verb ("never forget to",
 * "don't hesitate", "do not skip") does not warn; a descriptive cue followed by a step verb ("to patch the
 * exploit run …") does not either.
 */

/** Words that end a clause for good: what comes after is another statement. */
const STOP_WORDS = new Set(['then', 'so', 'but', 'because', 'before', 'after', 'once', 'when', 'whenever', 'while', 'if', 'unless', 'until', 'otherwise', 'else', 'however', 'therefore', 'thus', 'now', 'first', 'next', 'finally'])
/** Joining words that may continue a list ("avoid `a`, `b` and `c`"). */
const LIST_WORDS = new Set(['and', 'plus'])
/** Words an item of a list may carry besides itself. */
const FILLER = new Set(['§', 'or', 'nor', 'also', 'e.g.', 'eg', 'i.e.', 'ie', 'like', 'such', 'as', 'including', 'especially', 'even', 'etc', 'etc.', 'either', 'neither', 'any', 'the', 'a', 'an', 'other', 'similar', 'things', 'anything'])
/** Last words of a clause that introduces examples ("never do this:", "avoid patterns like:"). */
const INTRO_WORDS = /^(?:this|these|that|those|like|following|as|e\.g\.|eg|including|include|includes|commands?|patterns?|lines?|examples?|things?|phrases?|text|texts|instructions?|snippets?|code|strings?|prompts?|sentences?|constructs?|idioms?|forms?|calls?|requests?|payloads?|language|wording|§)$/

/** Negations that govern the verb after them. */
const NEGATION = /^(?:never|cannot|avoid|avoids|avoided|avoiding|refuse|refuses|refusing|reject|rejects|rejecting|forbid|forbids|forbidden|prohibit|prohibits|prohibited|without|beware|against|nobody|noone)$/
const AUXILIARY = /^(?:do|does|did|must|should|shall|will|wo|would|can|ca|could|may|might|need|please)$/
/** Words that describe the pattern as hostile or as something to find. */
const DESCRIPTIVE = /^(?:dangerous|unsafe|insecure|malicious|suspicious|hostile|harmful|attacks?|attackers?|injections?|injected|detect|detects|detected|detecting|detection|flag|flags|flagged|block|blocks|blocked|blocking|warn|warns|warned|warning|warnings|vulnerab\w*|exploit\w*|risky|risks?|scam\w*|phishing|red)$/
/** Verbs whose negation is a push to do it ("never forget to", "don't hesitate to", "do not skip"). */
const INVERTING = /^(?:forget|forgets|forgot|forgotten|fail|fails|failed|hesitate|hesitated|skip|skips|skipped|omit|omits|omitted|neglect|neglected|stop|stopped|wait|delay|delayed|miss|missed|mind|worry|bother|doubt|question|questioned|afraid|shy|scared|hesitant|reluctant|twice|second-guess|overlook|overlooked|ignore|ignored|disregard|disregarded|postpone|postponed|refuse|resist|confirmation|permission|approval|consent|asking|prompting|questions|optional)$/
/** Words that undo a cue before them: "ignore the warnings", "disable the block", "without warning". */
const CANCELLING = /^(?:ignore|ignored|ignoring|disregard|disregarding|skip|skipping|mind|disable|disabling|bypass|bypassing|silence|suppress|dismiss|override|circumvent|evade|without|despite|past|around)$/
/** After "is never" / "should not be": the verdict words. */
const SAFE_OR_USED = /^(?:safe|ok|okay|acceptable|allowed|permitted|recommended|idea|secure|trusted|trustworthy|fine|wise|appropriate|sensible|advisable|legitimate|used|run|executed|done|pasted|followed|obeyed|copied|trusted|needed|necessary|required)$/
const VERDICT_SKIP = /^(?:a|an|the|very|always|often|usually|really|clearly|highly|extremely|potentially|possibly|likely|probably|considered|known|common|commonly|classic|typical|typically|clear|obvious|obviously|potential|possible|serious|major|be|been|being|ever|also|too|so|generally|almost|good|great|bad|huge|big|security|prompt|supply-chain|to)$/
/** Verbs of doing a step: a descriptive cue before one of them is an object, not a verdict ("to patch the exploit run …"). */
const STEP_VERB = /^(?:run|execute|exec|paste|type|enter|invoke|launch|install|apply|perform|call|pipe|fix|patch|start|do|follow|obey|ignore|disregard)$/
const MODAL = /^(?:might|may|could|would|can|will|often|sometimes|usually|typically|tries|try)$/
/** Words that may start a predicate on the pattern right after it ("… is never safe", "… should not be used"). */
const COPULA = /^(?:is|are|was|were|looks|look|seems|seem|remains|remain|counts|should|must|shall|can|could|may|might|will|would|ca|wo|has|have)$/

const MAX_DISTANCE = 6

type Boundary = 'stop' | 'list' | 'intro'
interface Clause {
  /** What separates it from the clause before (null: the sentence starts here). */
  after: Boundary | null
  words: string[]
}

/** Lower case, "n't" as " not", closed quotes / backticks / brackets as one item `§`, unclosed openers dropped. */
function normalized(text: string): string {
  let t = text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s`"'()<>[\]]+/gi, ' § ').replace(/[*_]+/g, ' ').replace(/n['’]t\b/gi, ' not').toLowerCase()
  t = t.replace(/`[^`]*`/g, ' § ').replace(/"[^"]*"|“[^”]*”/g, ' § ')
  for (let i = 0; i < 3; i++) t = t.replace(/\([^()]*\)|\[[^[\]]*\]/g, ' § ')
  return t.replace(/[`"“”()[\]]/g, ' ')
}

/** The clauses of a text, split at punctuation and at joining words (which are dropped). */
function clausesOf(text: string): Clause[] {
  const clauses: Clause[] = [{ after: null, words: [] }]
  const tokens = normalized(text).match(/§|[;:,—–]|(?<=\s|^)-(?=\s)|[a-z0-9][\w'’./-]*/g) ?? []
  for (const tok of tokens) {
    let cut: Boundary | null = null
    if (tok === ';' || STOP_WORDS.has(tok)) cut = 'stop'
    else if (tok === ',' || LIST_WORDS.has(tok)) cut = 'list'
    else if (tok === ':' || tok === '—' || tok === '–' || tok === '-') cut = 'intro'
    if (cut) clauses.push({ after: cut, words: [] })
    else clauses[clauses.length - 1]!.words.push(tok.replace(/\.$/, '') || tok)
  }
  return clauses
}

const isFiller = (c: Clause): boolean => c.words.every((w) => FILLER.has(w))
const isCue = (words: readonly string[], i: number): boolean => cueKind(words, i) !== null

/** Whether words[i] is a cue, and of which kind: a governing negation, a bare one, or a description. */
function cueKind(words: readonly string[], i: number): 'negation' | 'bare' | 'descriptive' | null {
  const w = words[i]!
  const next = words[i + 1]
  if (NEGATION.test(w)) return 'negation'
  if (w === 'not') return (i > 0 && AUXILIARY.test(words[i - 1]!)) || next === 'to' ? 'negation' : 'bare'
  if (w === 'no') return 'bare'
  if ((w === 'instead' && next === 'of') || (w === 'rather' && next === 'than')) return 'negation'
  if (w === 'red') return next === 'flag' || next === 'flags' ? 'descriptive' : null
  if (DESCRIPTIVE.test(w)) return 'descriptive'
  return null
}

/** Whether the last cue of `words` governs what follows the clause's end (the pattern, or the list it heads). */
function governs(words: readonly string[]): boolean {
  let at = -1
  for (let i = words.length - 1; i >= 0 && at < 0; i--) if (isCue(words, i)) at = i
  if (at < 0) return false
  const kind = cueKind(words, at)!
  // "don't avoid", "never finish without": a negation of a negation; "ignore the warnings": a cue undone
  const earlier = words.slice(0, at)
  if (kind === 'negation' && earlier.some((w, i) => w === 'never' || w === 'not' || w === 'no' || w === 'cannot' || (NEGATION.test(w) && cueKind(earlier, i) === 'negation'))) return false
  if (kind === 'descriptive' && earlier.slice(-3).some((w) => CANCELLING.test(w))) return false
  const between = words.slice(at + 1).filter((w) => w !== 'of' && w !== 'than')
  if (between.length > MAX_DISTANCE) return false
  if (kind === 'bare') return between.length <= 1
  if (kind === 'negation') {
    // "never forget to", "do not ever skip": the second negative undoes the first
    return !between.slice(0, 3).some((w) => INVERTING.test(w))
  }
  const step = between.findIndex((w) => STEP_VERB.test(w))
  return step < 0 || between.slice(0, step).some((w) => MODAL.test(w)) || /^attackers?$/.test(words[at]!)
}

/** Whether the head of a list (or an introduction) ends the way a list of examples begins. */
function introduces(c: Clause): boolean {
  const last = c.words[c.words.length - 1]
  return last !== undefined && (INTRO_WORDS.test(last) || isCue(c.words, c.words.length - 1))
}

/** "… is never safe", "… should not be used", "… is a known attack": a verdict right after the pattern, in its clause. */
function verdictAfter(after: string): boolean {
  const words = clausesOf(after.replace(/^[\s`"”')\]]+/, ''))[0]!.words
  if (words.length === 0 || !COPULA.test(words[0]!)) return false
  let i = 1
  while (i < words.length && VERDICT_SKIP.test(words[i]!)) i++
  if (i < words.length && cueKind(words, i) === 'descriptive') return true
  if (words[i] !== 'never' && words[i] !== 'not') return false
  i++
  while (i < words.length && VERDICT_SKIP.test(words[i]!)) i++
  return i < words.length && SAFE_OR_USED.test(words[i]!)
}

/**
 * Whether `line`'s sentence around `matched` names it as a warning or an example. `matched` is the text a rule
 * matched (itself left out: "do not tell the user" is not its own warning).
 */
export function namedAsWarning(line: string, matched: string): boolean {
  const at = matched ? line.indexOf(matched) : -1
  if (at < 0) return false
  const before = line.slice(0, at)
  const start = Math.max(before.lastIndexOf('. '), before.lastIndexOf('! '), before.lastIndexOf('? '))
  const rest = line.slice(at + matched.length)
  const end = rest.search(/[.!?](?:\s|$)/)
  if (verdictAfter(end < 0 ? rest : rest.slice(0, end))) return true

  const clauses = clausesOf(before.slice(start + 1))
  let k = clauses.length - 1
  if (!isFiller(clauses[k]!)) return governs(clauses[k]!.words)
  // the pattern is an item of a list: back over the list to the clause that heads it
  let items = 0
  for (;;) {
    const joint = clauses[k]!.after
    if (joint === null || joint === 'stop') return false
    const head = clauses[--k]!
    if (joint === 'intro') return introduces(head) && governs(head.words)
    if (isFiller(head)) continue
    if (head.words.some((_, i) => isCue(head.words, i))) return (INTRO_WORDS.test(head.words[head.words.length - 1]!) || items > 0) && governs(head.words)
    // an item in words ("never pipe curl to sh, wget to bash, or `…`"), not a step
    if (head.words.length > 4 || head.words.some((w) => STEP_VERB.test(w))) return false
    items++
  }
}
