import { useMemo, useState } from 'react'
import { useInfiniteQuery } from '@tanstack/react-query'
import type { SessionSourceKind } from '../../../shared/api'
import { useApi } from '../../api/context'
import { queryKeys } from '../../api/query-keys'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatBytes } from '../../components/format'
import { VirtualList } from '../../components/VirtualList'
import { useI18n } from '../../i18n/i18n'

const WINDOW_BYTES = 128 * 1024

/** Where a task comes from: an AGIAgent data root, or a folder of another agent's sessions. */
export type TaskOrigin = { kind: 'root'; root: string } | { kind: 'session'; source: SessionSourceKind; dir: string }

/** The raw log (or session file), loaded in byte windows as the user scrolls, shown as a virtualised list of lines. */
export function LogView(props: { origin: TaskOrigin; taskPath: string }): React.JSX.Element {
  const { t } = useI18n()
  const api = useApi()
  const [file, setFile] = useState('')
  const { origin } = props
  const log = useInfiniteQuery({
    queryKey: origin.kind === 'root' ? queryKeys.log(origin.root, props.taskPath, file) : queryKeys.sessionLog(origin.source, origin.dir, props.taskPath),
    queryFn: ({ pageParam }) =>
      origin.kind === 'root'
        ? api.call('tasks.readLog', { root: origin.root, taskPath: props.taskPath, file: file || undefined, start: pageParam, maxBytes: WINDOW_BYTES })
        : api.call('sessions.readLog', { source: origin.source, dir: origin.dir, taskPath: props.taskPath, start: pageParam, maxBytes: WINDOW_BYTES }),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.end < last.size ? last.end : undefined)
  })
  const pages = log.data?.pages
  const lines = useMemo(() => (pages ? pages.map((p) => p.text).join('').split('\n') : []), [pages])
  const first = pages?.[0]
  const lastPage = pages?.[pages.length - 1]
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = log
  const loadMore = useMemo(
    () => () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage()
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage]
  )
  return (
    <div className="log-view" data-testid="log-view">
      <div className="toolbar">
        {first && first.files.length > 1 && (
          <label className="field-inline">
            {t('tasks.logFile')}
            <select value={file || first.file} onChange={(e) => setFile(e.target.value)}>
              {first.files.map((f) => (
                <option key={f} value={f}>
                  {f}
                </option>
              ))}
            </select>
          </label>
        )}
        {lastPage && (
          <span className="muted">
            {t('tasks.logLoaded', { loaded: formatBytes(lastPage.end), size: formatBytes(lastPage.size), lines: lines.length })}
          </span>
        )}
        {hasNextPage && (
          <button type="button" className="btn btn-small" onClick={loadMore} disabled={isFetchingNextPage}>
            {t('tasks.loadMore')}
          </button>
        )}
      </div>
      {log.error && <ErrorNotice error={log.error} onRetry={() => void log.refetch()} />}
      {log.isLoading ? (
        <p className="muted">{t('common.loading')}</p>
      ) : (
        <VirtualList items={lines} rowHeight={19} getKey={(_l, i) => String(i)} ariaLabel={t('tasks.rawLog')} testId="log-lines" className="log-lines" onNearEnd={loadMore} renderRow={(line, i) => (
          <span className="log-line">
            <span className="log-no" aria-hidden="true">
              {i + 1}
            </span>
            {line}
          </span>
        )} />
      )}
    </div>
  )
}
