import { useMemo, useState } from 'react'
import { useInfiniteQuery, useMutation } from '@tanstack/react-query'
import type { LogChunk, LogSearchResult, SessionSourceKind } from '../../../shared/api'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatBytes } from '../../components/format'
import { VirtualList } from '../../components/VirtualList'
import { useI18n } from '../../i18n/i18n'
import { RecordBlock } from './RecordBlock'

const WINDOW_BYTES = 128 * 1024
/** A jump shows this much of the log before its target, for context. */
const CONTEXT_BYTES = 2 * 1024
const CONTEXT_LINES = 12

/** Where a task comes from: an AGIAgent data root, or a folder of another agent's sessions. */
export type TaskOrigin = { kind: 'root'; root: string } | { kind: 'session'; source: SessionSourceKind; dir: string }

/** A place in the raw log to show: a byte offset (AGIAgent) or a line (JSONL sessions), in a file; `seq` repeats a jump. */
export interface LogTarget {
  file?: string
  offset?: number
  line?: number
  /** Show the end of the file. */
  end?: boolean
  seq: number
}

type PageParam = { start?: number; at?: number; line?: number; end?: number }

interface Anchor {
  param: PageParam
  seq: number
  toEnd?: boolean
  file?: string
  /** The jump's target, marked once loaded: a byte offset inside its line, or a line number. */
  targetOffset?: number
  targetLine?: number
}

/** A jump to a byte offset, loading a little before it for context. */
function offsetAnchor(offset: number, seq: number, file?: string): Anchor {
  return { param: { at: Math.max(0, offset - CONTEXT_BYTES) }, seq, file, targetOffset: offset }
}

/** A jump to a line, loading a few lines before it for context. */
function lineAnchor(line: number, seq: number, file?: string): Anchor {
  return { param: { line: Math.max(1, line - CONTEXT_LINES) }, seq, file, targetLine: line }
}

/** Index (in `lines`) of the line a jump aimed at, or undefined. */
function targetIndex(pages: readonly LogChunk[], lines: readonly string[], anchor: Anchor): number | undefined {
  const first = pages[0]
  if (!first) return undefined
  if (anchor.targetLine !== undefined) {
    const i = anchor.targetLine - first.firstLine
    return i >= 0 && i < lines.length ? i : undefined
  }
  if (anchor.targetOffset === undefined) return undefined
  const encoder = new TextEncoder()
  let at = first.start
  for (let i = 0; i < lines.length; i++) {
    const next = at + encoder.encode(lines[i]!).length + 1
    if (anchor.targetOffset < next) return i
    at = next
  }
  return undefined
}

/** Lines of contiguous windows, numbered from the first window's first line. */
export function windowLines(pages: readonly LogChunk[]): string[] {
  const text = pages.map((p) => p.text).join('')
  const lines = text.split('\n')
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  return lines
}

/**
 * The raw log (or session file), loaded in windows of whole lines around where the user is: from the start,
 * at a tool call, at a search match or at the end; more loads on scrolling and with "earlier" / "later".
 * Session files (JSONL) show one record per block.
 */
export function LogView(props: { origin: TaskOrigin; taskPath: string; target?: LogTarget }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const { origin } = props
  const [chosenFile, setChosenFile] = useState('')
  const [anchor, setAnchor] = useState<Anchor>({ param: { start: 0 }, seq: 0 })
  const [seenTarget, setSeenTarget] = useState<number | null>(null)
  const target = props.target
  if (target && target.seq !== seenTarget) {
    setSeenTarget(target.seq)
    if (target.file) setChosenFile(target.file)
    setAnchor(target.line !== undefined ? lineAnchor(target.line, target.seq, target.file) : target.offset !== undefined ? offsetAnchor(target.offset, target.seq, target.file) : { param: { start: 0 }, seq: target.seq, file: target.file })
  }
  const file = anchor.file ?? chosenFile
  const log = useInfiniteQuery({
    queryKey: [...(origin.kind === 'root' ? queryKeys.log(origin.root, props.taskPath, file) : queryKeys.sessionLog(origin.source, origin.dir, props.taskPath)), anchor.seq, JSON.stringify(anchor.param)],
    queryFn: ({ pageParam }: { pageParam: PageParam }) =>
      origin.kind === 'root'
        ? api.call('tasks.readLog', { root: origin.root, taskPath: props.taskPath, file: file || undefined, ...pageParam, maxBytes: WINDOW_BYTES })
        : api.call('sessions.readLog', { source: origin.source, dir: origin.dir, taskPath: props.taskPath, ...pageParam, maxBytes: WINDOW_BYTES }),
    initialPageParam: anchor.param,
    getNextPageParam: (last: LogChunk): PageParam | undefined => (last.end < last.size ? { start: last.end } : undefined),
    getPreviousPageParam: (first: LogChunk): PageParam | undefined => (first.start > 0 ? { at: Math.max(0, first.start - WINDOW_BYTES), end: first.start } : undefined)
  })
  const pages = log.data?.pages
  const lines = useMemo(() => (pages ? windowLines(pages) : []), [pages])
  const first = pages?.[0]
  const lastPage = pages?.[pages.length - 1]
  const firstLine = first?.firstLine ?? 1
  const { hasNextPage, hasPreviousPage, isFetchingNextPage, isFetchingPreviousPage, fetchNextPage, fetchPreviousPage } = log
  const loadMore = useMemo(
    () => () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage()
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage]
  )
  const [query, setQuery] = useState('')
  const search = useMutation({
    mutationFn: (q: string): Promise<LogSearchResult> =>
      origin.kind === 'root'
        ? api.call('tasks.searchLog', { root: origin.root, taskPath: props.taskPath, file: (first?.file ?? file) || undefined, query: q })
        : api.call('sessions.searchLog', { source: origin.source, dir: origin.dir, taskPath: props.taskPath, query: q })
  })
  const jumpToOffset = (offset: number): void => setAnchor((a) => offsetAnchor(offset, a.seq + 1, first?.file))
  const jumpToEnd = (): void => {
    if (!lastPage) return
    setAnchor((a) => ({ param: { at: Math.max(0, lastPage.size - WINDOW_BYTES) }, seq: a.seq + 1, toEnd: true, file: first?.file }))
  }
  const jumpToStart = (): void => setAnchor((a) => ({ param: { start: 0 }, seq: a.seq + 1, file: first?.file }))
  const records = origin.kind === 'session'
  const marked = useMemo(() => (pages ? targetIndex(pages, lines, anchor) : undefined), [pages, lines, anchor])
  const scrollIndex = anchor.toEnd ? Math.max(0, lines.length - 1) : marked !== undefined ? Math.max(0, marked - 3) : 0

  return (
    <div className="log-view" data-testid="log-view">
      <div className="toolbar log-toolbar">
        {first && first.files.length > 1 && (
          <label className="field-inline">
            {t('tasks.logFile')}
            <select
              value={first.file}
              onChange={(e) => {
                setChosenFile(e.target.value)
                setAnchor((a) => ({ param: { start: 0 }, seq: a.seq + 1 }))
              }}
            >
              {first.files.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </label>
        )}
        <form
          className="log-search"
          role="search"
          onSubmit={(e) => {
            e.preventDefault()
            if (query.trim()) search.mutate(query.trim())
          }}
        >
          <input type="search" className="input" placeholder={t('tasks.searchLog')} aria-label={t('tasks.searchLog')} data-testid="log-search" value={query} onChange={(e) => setQuery(e.target.value)} />
          <button type="submit" className="btn btn-small" disabled={!query.trim() || search.isPending}>
            {t('tasks.find')}
          </button>
        </form>
        <button type="button" className="btn btn-small" data-testid="log-start" onClick={jumpToStart} disabled={!first}>
          {t('tasks.toStart')}
        </button>
        <button type="button" className="btn btn-small" data-testid="log-end" onClick={jumpToEnd} disabled={!lastPage}>
          {t('tasks.toEnd')}
        </button>
      </div>
      {first && lastPage && (
        <p className="muted small log-status" data-testid="log-status">
          {t('tasks.logShowing', { from: firstLine, to: firstLine + Math.max(0, lines.length - 1), loaded: formatBytes(lastPage.end - first.start), size: formatBytes(lastPage.size) })}
        </p>
      )}
      {search.error && <ErrorNotice error={search.error} action="failed.searchLog" />}
      {search.data && (
        <div className="log-results" data-testid="log-results">
          <p className="muted small">
            {search.data.matches.length === 0 ? t('tasks.noMatch', { query }) : t(search.data.limited ? 'tasks.matchesLimited' : 'tasks.matches', { n: search.data.matches.length })}
          </p>
          {search.data.matches.length > 0 && (
            <ul>
              {search.data.matches.map((m) => (
                <li key={m.offset}>
                  <button type="button" className="link log-hit" data-testid="log-hit" onClick={() => jumpToOffset(m.offset)}>
                    <span className="log-no-inline">{m.line}</span> {m.text}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {log.error && <ErrorNotice error={log.error} action="failed.readLog" onRetry={() => void log.refetch()} />}
      {hasPreviousPage && (
        <button type="button" className="btn btn-small log-more" data-testid="log-earlier" disabled={isFetchingPreviousPage} onClick={() => void fetchPreviousPage()}>
          {t('tasks.loadEarlier')}
        </button>
      )}
      {log.isLoading ? (
        <p className="muted">{t('common.loading')}</p>
      ) : (
        <VirtualList
          items={lines}
          getKey={(_l, i) => String(firstLine + i)}
          ariaLabel={t('tasks.rawLog')}
          onNearEnd={loadMore}
          jumpTo={{ index: scrollIndex, seq: anchor.seq }}
          markedIndex={marked}
          {...(records
            ? // a session file: one JSONL record per block (blocks hold buttons: a list, not options)
              { rowHeight: 64, measured: true, role: 'list' as const, testId: 'log-records', className: 'log-records', renderRow: (line: string, i: number) => <RecordBlock line={line} lineNo={firstLine + i} /> }
            : {
                rowHeight: 19,
                testId: 'log-lines',
                className: 'log-lines',
                renderRow: (line: string, i: number) => (
                  <span className="log-line">
                    <span className="log-no" aria-hidden="true">
                      {firstLine + i}
                    </span>
                    {/* an option needs a name: a blank line says so to screen readers */}
                    {line || <span className="sr-only">{t('tasks.blankLine')}</span>}
                  </span>
                )
              })}
        />
      )}
      {hasNextPage && (
        <button type="button" className="btn btn-small log-more" onClick={loadMore} disabled={isFetchingNextPage}>
          {t('tasks.loadMore')}
        </button>
      )}
    </div>
  )
}
