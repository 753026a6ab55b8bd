/**
 * One JSONL record of an agent session (Claude Code, Codex, Synapse) as a readable block: what it is (type,
 * role, tool), when, and its content, instead of a raw JSON line. Long content folds; the whole record stays
 * one click away.
 */
import { useState } from 'react'
import { useI18n } from '../../i18n/i18n'

type Json = Record<string, unknown>

/** Bookkeeping keys a reader does not need to see in every record. */
const NOISE = new Set(['uuid', 'parentUuid', 'sessionId', 'version', 'gitBranch', 'userType', 'isSidechain', 'cwd', 'requestId', 'id', 'signature', 'leafUuid'])
const FOLDED_LINES = 12

function asObj(v: unknown): Json | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/** The readable parts of a content value: text as text, tool calls as `name(args)`, results as their text. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return content === undefined ? '' : JSON.stringify(content, null, 2)
  return content
    .map((raw) => {
      const b = asObj(raw)
      if (!b) return ''
      if (b.type === 'text' || b.type === 'output_text' || b.type === 'input_text') return str(b.text)
      if (b.type === 'thinking') return `(thinking) ${str(b.thinking)}`
      if (b.type === 'tool_use') return `→ ${str(b.name)} ${JSON.stringify(b.input ?? {}, null, 2)}`
      if (b.type === 'tool_result') return `← ${b.is_error ? 'error: ' : ''}${contentText(b.content)}`
      return JSON.stringify(b, null, 2)
    })
    .filter(Boolean)
    .join('\n')
}

function stripNoise(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !NOISE.has(k)))
}

/** A record's heading words and body text (pure). Lines that are not JSON objects are shown as they are. */
export function describeRecord(line: string): { kind: string; detail: string; time: string; body: string } {
  let r: Json | undefined
  try {
    r = asObj(JSON.parse(line))
  } catch {
    r = undefined
  }
  if (!r) return { kind: '', detail: '', time: '', body: line }
  const time = str(r.timestamp)
  const message = asObj(r.message)
  const payload = asObj(r.payload)
  if (message) {
    const role = str(message.role)
    const tools = Array.isArray(message.content) ? message.content.map(asObj).filter((b) => b?.type === 'tool_use').map((b) => str(b!.name)) : []
    return { kind: str(r.type) || role, detail: tools.length ? tools.join(', ') : role, time, body: contentText(message.content) }
  }
  if (payload) {
    const type = str(payload.type)
    const name = str(payload.name)
    const text = str(payload.message) || str(payload.text) || contentText(payload.content) || str(payload.output)
    const args = str(payload.arguments)
    let body = text
    if (args) {
      try {
        body = `${name}(${JSON.stringify(JSON.parse(args), null, 2)})`
      } catch {
        body = `${name}(${args})`
      }
    }
    if (!body) body = JSON.stringify(payload, null, 2)
    return { kind: str(r.type), detail: name || type, time, body }
  }
  return { kind: str(r.type), detail: '', time, body: JSON.stringify(stripNoise(r), null, 2) }
}

export function RecordBlock(props: { line: string; lineNo: number }): React.JSX.Element {
  const { t } = useI18n()
  const [open, setOpen] = useState(false)
  const [raw, setRaw] = useState(false)
  const rec = describeRecord(props.line)
  const text = raw ? props.line : rec.body
  const lines = text.split('\n')
  const folded = !open && lines.length > FOLDED_LINES
  return (
    <div className="record" data-testid="log-record">
      <div className="record-head">
        <span className="log-no-inline">{props.lineNo}</span>
        {rec.kind && <span className="record-kind">{rec.kind}</span>}
        {rec.detail && <span className="record-detail">{rec.detail}</span>}
        {rec.time && <span className="muted small">{rec.time.replace('T', ' ').replace(/\.\d+Z?$/, '')}</span>}
        <span className="spacer" />
        {rec.kind && (
          <button type="button" className="btn btn-small btn-ghost" aria-pressed={raw} onClick={() => setRaw((v) => !v)}>
            {t('record.raw')}
          </button>
        )}
      </div>
      {text.trim() ? <pre className="record-body">{folded ? `${lines.slice(0, FOLDED_LINES).join('\n')}\n…` : text}</pre> : <p className="muted small record-empty">{t('record.empty')}</p>}
      {lines.length > FOLDED_LINES && (
        <button type="button" className="btn btn-small btn-ghost" aria-expanded={open} onClick={() => setOpen((v) => !v)}>
          {open ? t('record.less') : t('record.more', { n: lines.length - FOLDED_LINES })}
        </button>
      )}
    </div>
  )
}
