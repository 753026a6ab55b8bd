import { useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { OverviewResult } from '../../../shared/api'
import { useApi } from '../../api/context'
import { useLibraries } from '../../api/hooks'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatDate } from '../../components/format'
import { useI18n } from '../../i18n/i18n'
import { layoutClusters } from './cluster-layout'

const PALETTE = ['#3b82f6', '#10b981', '#f59e0b', '#8b5cf6', '#ec4899', '#14b8a6', '#f97316', '#6366f1', '#84cc16', '#06b6d4']

/** The first screen: counts, recent activity, quality histogram and the library map. */
export function OverviewScreen(): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const { library, navigate } = useAppState()
  const libraries = useLibraries()
  const settings = useQuery({ queryKey: queryKeys.settings(), queryFn: () => api.call('settings.get', {}) })
  const overview = useQuery({ queryKey: queryKeys.overview(library ?? ''), queryFn: () => api.call('overview.get', { library: library! }), enabled: !!library })
  const data = overview.data
  const label = libraries.data?.find((l) => l.path === library)?.label
  return (
    <section className="screen" aria-labelledby="ov-title">
      <header className="screen-header">
        <h1 id="ov-title">{t('overview.title')}</h1>
        {label && <span className="muted">{label}</span>}
      </header>
      {libraries.error && <ErrorNotice error={libraries.error} onRetry={() => void libraries.refetch()} />}
      {libraries.data && libraries.data.length === 0 && (
        <div className="empty">
          <p>{t('shell.noLibraryHelp')}</p>
          <button type="button" className="btn" onClick={() => navigate({ screen: 'settings' })}>
            {t('nav.settings')}
          </button>
        </div>
      )}
      {overview.error && <ErrorNotice error={overview.error} onRetry={() => void overview.refetch()} />}
      {overview.isLoading && <p className="muted">{t('common.loading')}</p>}
      {data && (
        <>
          <div className="cards" data-testid="overview-counts">
            <Card label={t('overview.skills')} value={data.skills} onClick={() => navigate({ screen: 'skills' })} />
            <Card label={t('overview.legacy')} value={data.legacy} />
            <Card label={t('overview.tasks')} value={data.tasks} onClick={() => navigate({ screen: 'workspaces' })} />
            <Card label={t('overview.reflected')} value={data.reflectedTasks} />
            <Card label={t('overview.proposals')} value={data.pendingProposals} onClick={() => navigate({ screen: 'curate' })} />
            <Card label={t('overview.errors')} value={data.errors} tone={data.errors > 0 ? 'bad' : undefined} />
          </div>
          <div className="overview-grid">
            <section className="panel">
              <h2>{t('overview.map')}</h2>
              <ClusterMap graph={data.graph} threshold={settings.data?.thresholds.merge ?? 0.7} onOpen={(id) => library && navigate({ screen: 'editor', library, skillId: id })} />
            </section>
            <div className="overview-side">
              <section className="panel">
                <h2>{t('overview.histogram')}</h2>
                <Histogram bins={data.qualityHistogram} />
              </section>
              <section className="panel">
                <h2>{t('overview.recent')}</h2>
                {data.recent.length === 0 ? (
                  <p className="muted">{t('common.none')}</p>
                ) : (
                  <ul className="recent" data-testid="overview-recent">
                    {data.recent.slice(0, 12).map((r, i) => (
                      <li key={i}>
                        <span className="muted">{formatDate(r.at, lang)}</span>{' '}
                        {r.skill_id && library ? (
                          <button type="button" className="link" onClick={() => navigate({ screen: 'editor', library, skillId: r.skill_id! })}>
                            {r.what}
                          </button>
                        ) : (
                          r.what
                        )}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </div>
          </div>
        </>
      )}
    </section>
  )
}

function Card(props: { label: string; value: number; onClick?: () => void; tone?: 'bad' }): React.JSX.Element {
  const body = (
    <>
      <span className={props.tone === 'bad' ? 'card-value bad-text' : 'card-value'}>{props.value}</span>
      <span className="card-label">{props.label}</span>
    </>
  )
  return props.onClick ? (
    <button type="button" className="card card-button" onClick={props.onClick}>
      {body}
    </button>
  ) : (
    <div className="card">{body}</div>
  )
}

/** Bars of the quality distribution (bins over 0..1). */
export function Histogram(props: { bins: number[] }): React.JSX.Element {
  const { t } = useI18n()
  const max = Math.max(1, ...props.bins)
  const n = props.bins.length
  const w = 300
  const h = 120
  const bw = n > 0 ? w / n : w
  return (
    <svg className="histogram" viewBox={`0 -14 ${w} ${h + 32}`} role="img" aria-label={t('overview.histogramAria', { n: props.bins.reduce((a, b) => a + b, 0) })} data-testid="quality-histogram">
      {props.bins.map((count, i) => {
        const bh = (count / max) * h
        return (
          <g key={i}>
            <rect x={i * bw + 2} y={h - bh} width={Math.max(1, bw - 4)} height={bh} className="hist-bar">
              <title>{`${(i / n).toFixed(1)}–${((i + 1) / n).toFixed(1)}: ${count}`}</title>
            </rect>
            {count > 0 && (
              <text x={i * bw + bw / 2} y={h - bh - 3} textAnchor="middle" className="hist-count">
                {count}
              </text>
            )}
          </g>
        )
      })}
      <text x={0} y={h + 14} className="hist-axis">
        0
      </text>
      <text x={w} y={h + 14} textAnchor="end" className="hist-axis">
        1
      </text>
    </svg>
  )
}

/** The similarity graph: colour = cluster, red edges = likely duplicates (≥ merge threshold). */
export function ClusterMap(props: { graph: OverviewResult['graph']; threshold: number; onOpen: (id: string) => void }): React.JSX.Element {
  const { t } = useI18n()
  const size = 520
  const [hover, setHover] = useState<string | null>(null)
  const layout = useMemo(() => layoutClusters(props.graph.nodes, size), [props.graph.nodes])
  const pos = useMemo(() => new Map(layout.nodes.map((n) => [n.id, n])), [layout])
  const duplicates = props.graph.edges.filter((e) => e.similarity >= props.threshold).length
  if (props.graph.nodes.length === 0) return <p className="muted">{t('overview.noSkills')}</p>
  return (
    <div className="cluster-map">
      <svg viewBox={`0 0 ${size} ${size}`} role="img" aria-label={t('overview.mapAria', { nodes: props.graph.nodes.length, clusters: layout.clusters.length, duplicates })} data-testid="cluster-map">
        {props.graph.edges.map((e, i) => {
          const a = pos.get(e.source)
          const b = pos.get(e.target)
          if (!a || !b) return null
          const dup = e.similarity >= props.threshold
          return (
            <line key={i} x1={a.x} y1={a.y} x2={b.x} y2={b.y} className={dup ? 'edge edge-dup' : 'edge'} strokeWidth={dup ? 2.5 : 1} strokeOpacity={dup ? 0.9 : 0.15 + e.similarity * 0.6} data-testid={dup ? 'edge-dup' : undefined}>
              <title>{`${e.similarity.toFixed(3)}`}</title>
            </line>
          )
        })}
        {layout.nodes.map((n) => (
          <g key={n.id} className="node" onMouseEnter={() => setHover(n.id)} onMouseLeave={() => setHover(null)}>
            <circle
              cx={n.x}
              cy={n.y}
              r={5 + n.quality * 6}
              fill={n.cluster < 0 ? 'var(--muted)' : PALETTE[n.cluster % PALETTE.length]}
              tabIndex={0}
              role="button"
              aria-label={`${n.title} (${n.quality.toFixed(2)})`}
              onClick={() => props.onOpen(n.id)}
              onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && props.onOpen(n.id)}
              onFocus={() => setHover(n.id)}
              onBlur={() => setHover(null)}
              data-testid="map-node"
            >
              <title>{n.title}</title>
            </circle>
            {(hover === n.id || layout.nodes.length <= 24) && (
              <text x={n.x} y={n.y - 14} textAnchor="middle" className="node-label">
                {hover !== n.id && n.title.length > 28 ? `${n.title.slice(0, 28)}…` : n.title}
              </text>
            )}
          </g>
        ))}
      </svg>
      <p className="muted small">{t('overview.mapLegend', { clusters: layout.clusters.length, duplicates })}</p>
    </div>
  )
}
