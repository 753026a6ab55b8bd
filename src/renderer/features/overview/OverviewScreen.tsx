import { AuditCard, LibraryAuditPanel } from '../audit/LibraryAudit'
import { useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { OverviewResult, RecentActivity } from '../../../shared/api'
import type { JournalEntry } from '../../../shared/types'
import { useApi } from '../../api/context'
import { useLibraries, useRoots } from '../../api/hooks'
import { queryKeys } from '../../api/query-keys'
import { useAppState } from '../../app-state'
import type { Route } from '../../app-state'
import { ErrorNotice } from '../../components/ErrorNotice'
import { formatDate } from '../../components/format'
import { RootProblemNotice } from '../../components/RootProblemNotice'
import { useI18n } from '../../i18n/i18n'
import { translateText } from '../../i18n/messages-errors'
import type { Translate } from '../../i18n/i18n'
import type { MessageKey } from '../../i18n/messages'
import { readFlag } from '../../progress-flags'
import { fitInside, layoutClusters, placeLabels } from './cluster-layout'
import type { PlacedNode } from './cluster-layout'
import { clusterLabels, DENSE_AT, DENSE_RING, NAMED_CLUSTERS } from './map-density'
import { textMeasure } from './text-measure'
import { UsageLists } from '../usage/UsageLists'

const PALETTE = ['#2563eb', '#047857', '#b45309', '#7c3aed', '#be185d', '#0f766e', '#c2410c', '#4338ca', '#4d7c0f', '#0e7490']

/** One step of the first hour: what to do next, whether it is done, and where its button goes. */
export interface NextStep {
  key: 'browse' | 'reflect' | 'review' | 'rate'
  label: MessageKey
  vars?: Record<string, number>
  done: boolean
  route: Route
}

/** The first-hour steps for a library (pure): browse a task → reflect the new ones → review proposals → rate a skill. */
export function nextSteps(data: OverviewResult, library: string, flags: { browsed: boolean; rated: boolean }, firstSkill: string | undefined, sessionsOnly = false): NextStep[] {
  // what a reflect run would make skills of (greetings, follow-ups and unfinished tasks are not new work)
  const fresh = data.newTasks ?? Math.max(0, data.tasks - data.reflectedTasks)
  const skipped = data.noSkillTasks ?? 0
  const reflectLabel: MessageKey = fresh > 1 ? 'next.reflect' : fresh === 1 ? 'next.reflectOne' : data.tasks > 0 ? 'next.reflectDone' : 'next.reflectNone'
  // a folder of skills opened on its own, with no task anywhere (no data root, no sessions folder): browsing and
  // reflecting lead nowhere, so the steps start at what can be done with skills alone
  const noTasks = sessionsOnly && data.tasks === 0 && !data.sessionSources?.length
  const steps: NextStep[] = [
    { key: 'browse', label: 'next.browse', done: flags.browsed || data.reflectedTasks > 0, route: { screen: 'workspaces' } },
    // a library without a data root gets its tasks from session folders, reflected on the Workspaces screen
    { key: 'reflect', label: reflectLabel, vars: { n: fresh, reflected: data.reflectedTasks, skipped }, done: data.tasks > 0 && fresh === 0, route: sessionsOnly ? { screen: 'workspaces', ...(data.sessionSources?.[0] ? { session: data.sessionSources[0] } : {}) } : { screen: 'reflect' } },
    {
      key: 'review',
      label: data.pendingProposals > 1 ? 'next.review' : data.pendingProposals === 1 ? 'next.reviewOne' : data.planComputed ? 'next.reviewNone' : 'next.curate',
      vars: { n: data.pendingProposals },
      done: data.planComputed && data.pendingProposals === 0,
      route: { screen: 'curate' }
    },
    { key: 'rate', label: 'next.rate', done: flags.rated, route: firstSkill ? { screen: 'editor', library, skillId: firstSkill } : { screen: 'skills' } }
  ]
  return noTasks ? steps.filter((s) => s.key !== 'browse' && s.key !== 'reflect') : steps
}

/** The first screen: what to do next, counts, recent activity, quality histogram and the library map. */
export function OverviewScreen(): React.JSX.Element {
  const { t, lang } = useI18n()
  const api = useApi()
  const { library, navigate } = useAppState()
  const libraries = useLibraries()
  const roots = useRoots()
  const settings = useQuery({ queryKey: queryKeys.settings(), queryFn: () => api.call('settings.get', {}) })
  const overview = useQuery({ queryKey: queryKeys.overview(library ?? ''), queryFn: () => api.call('overview.get', { library: library! }), enabled: !!library })
  const data = overview.data
  const info = libraries.data?.find((l) => l.path === library)
  const root = roots.data?.find((r) => r.path === info?.root)
  // a root's problem is shown until it is solved: it has a library, or (a folder of skills) it was opened as one
  const problemRoots = (roots.data ?? []).filter((r) => r.problem && !(libraries.data ?? []).some((l) => l.root === r.path || (r.problem === 'library' && l.path === r.path)))
  const openErrors = (): void => {
    if (!library || !data) return
    if (data.errorFiles.length === 1) navigate({ screen: 'file', library, path: data.errorFiles[0]!.path })
    else navigate({ screen: 'skills', showErrors: true })
  }
  return (
    <section className="screen" aria-labelledby="ov-title">
      <header className="screen-header">
        <h1 id="ov-title">{t('overview.title')}</h1>
        {info && (
          <span className="muted" title={info.path}>
            {info.label}
          </span>
        )}
      </header>
      {libraries.error && <ErrorNotice error={libraries.error} action="failed.listLibraries" onRetry={() => void libraries.refetch()} />}
      {problemRoots.map((r) => (
        <RootProblemNotice key={r.path} root={r} />
      ))}
      {libraries.data && libraries.data.length === 0 && roots.data?.length === 0 && (
        <div className="empty">
          <p>{t('overview.noRoot')}</p>
          <button type="button" className="btn btn-primary" onClick={() => navigate({ screen: 'settings' })}>
            {t('overview.addRoot')}
          </button>
        </div>
      )}
      {overview.error && <ErrorNotice error={overview.error} action="failed.loadOverview" onRetry={() => void overview.refetch()} />}
      {overview.isLoading && <p className="muted">{t('common.loading')}</p>}
      {data && library && (
        <>
          {root?.problem && data.tasks === 0 && <RootProblemNotice root={root} />}
          {info && <NextSteps data={data} library={library} libraryRoot={info.root} />}
          <div className="cards" data-testid="overview-counts">
            <Card label={t('overview.skills')} value={data.skills} onClick={() => navigate({ screen: 'skills' })} />
            <Card label={t('overview.legacy')} value={data.legacy} />
            <Card label={t('overview.tasks')} value={data.tasks} onClick={() => navigate({ screen: 'workspaces' })} />
            <Card label={t('overview.reflected')} value={data.reflectedTasks} />
            {(data.noSkillTasks ?? 0) > 0 && <Card label={t('overview.noSkill')} value={data.noSkillTasks ?? 0} onClick={info?.root ? () => navigate({ screen: 'reflect' }) : undefined} testId="overview-no-skill" />}
            <Card label={t('overview.proposals')} value={data.pendingProposals} onClick={() => navigate({ screen: 'curate' })} />
            <Card label={t('overview.errors')} value={data.errors} tone={data.errors > 0 ? 'bad' : undefined} onClick={data.errors > 0 ? openErrors : undefined} testId="overview-errors" />
            <AuditCard library={library} />
          </div>
          <div className="overview-grid">
            <section className="panel">
              <h2>{t('overview.map')}</h2>
              <ClusterMap graph={data.graph} threshold={settings.data?.thresholds.merge ?? 0.7} onOpen={(id) => navigate({ screen: 'editor', library, skillId: id })} />
            </section>
            <div className="overview-side">
              <LibraryAuditPanel library={library} />
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
                        {r.kind === 'skill-created' || r.kind === 'skill-updated' ? (
                          <button type="button" className="link" onClick={() => navigate({ screen: 'editor', library, skillId: r.skill_id })}>
                            {describeActivity(t, r)}
                          </button>
                        ) : (
                          describeActivity(t, r.kind === 'log' ? { ...r, text: translateText(r.text, lang) } : r)
                        )}
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            </div>
          </div>
          <UsageLists library={library} />
        </>
      )}
    </section>
  )
}

/** A recent-activity line in the UI language. */
export function describeActivity(t: Translate, r: RecentActivity): string {
  switch (r.kind) {
    case 'skill-created':
      return t('recent.created', { title: r.title })
    case 'skill-updated':
      return t('recent.updated', { title: r.title })
    case 'curation-applied':
      // each kind its own sentence (a deploy is no proposal applied: skills written into an agent's folder)
      return Object.hasOwn(APPLIED, r.proposalKind) ? t(APPLIED[r.proposalKind as JournalEntry['kind']], { who: authorName(t, r.by) }) : t('recent.applied', { kind: kindName(t, r.proposalKind), who: authorName(t, r.by) })
    case 'curation-undone':
      return Object.hasOwn(UNDONE, r.proposalKind) ? t(UNDONE[r.proposalKind as JournalEntry['kind']]) : t('recent.undone', { kind: kindName(t, r.proposalKind) })
    case 'log':
      return r.level === 'info' ? t('recent.log', { text: r.text }) : t(r.level === 'error' ? 'recent.logError' : 'recent.logWarning', { text: r.text })
  }
}

/** Words for every kind the review engine journals (a kind added to JournalEntry fails the typecheck until it has some). */
const KINDS: Record<JournalEntry['kind'], MessageKey> = {
  merge: 'kind.merge',
  consolidate: 'kind.consolidate',
  cleanup: 'kind.cleanup',
  enhance: 'kind.enhance',
  edit: 'kind.edit',
  delete: 'kind.delete',
  update: 'kind.update',
  learned: 'kind.learned',
  review: 'kind.review',
  memory: 'kind.memory',
  deploy: 'kind.deploy'
}

/** A recent-activity sentence for every journal kind, applied and undone (a kind without one fails the typecheck). */
const APPLIED: Record<JournalEntry['kind'], MessageKey> = {
  merge: 'recent.applied.merge',
  consolidate: 'recent.applied.consolidate',
  cleanup: 'recent.applied.cleanup',
  enhance: 'recent.applied.enhance',
  edit: 'recent.applied.edit',
  delete: 'recent.applied.delete',
  update: 'recent.applied.update',
  learned: 'recent.applied.learned',
  review: 'recent.applied.review',
  memory: 'recent.applied.memory',
  deploy: 'recent.deployed'
}

const UNDONE: Record<JournalEntry['kind'], MessageKey> = {
  merge: 'recent.undone.merge',
  consolidate: 'recent.undone.consolidate',
  cleanup: 'recent.undone.cleanup',
  enhance: 'recent.undone.enhance',
  edit: 'recent.undone.edit',
  delete: 'recent.undone.delete',
  update: 'recent.undone.update',
  learned: 'recent.undone.learned',
  review: 'recent.undone.review',
  memory: 'recent.undone.memory',
  deploy: 'recent.undone.deploy'
}

export function kindName(t: Translate, kind: string): string {
  return Object.hasOwn(KINDS, kind) ? t(KINDS[kind as JournalEntry['kind']]) : kind
}

/**
 * Who made or applied a change, in words: you, the offline rules, an agent, or the model's name. A proposal a person
 * edited before accepting says so (`offline + user edit`: the core appends ` + user edit`).
 */
export function authorName(t: Translate, who: string | undefined): string {
  if (who?.endsWith(' + user edit')) return t('author.editedByYou', { who: authorName(t, who.slice(0, -' + user edit'.length)) })
  if (!who || who === 'user' || who === 'user edit') return t('author.you')
  if (who === 'skillbench deploy') return t('author.deploy')
  if (who.startsWith('deployed:')) return t('author.deployed', { target: who.slice('deployed:'.length) })
  if (who === 'offline') return t('author.offline')
  if (who.startsWith('mcp:') && who.length > 4) return t('author.agentNamed', { name: who.slice(4) })
  if (who === 'agent' || who.startsWith('mcp')) return t('author.agent')
  return who
}

function NextSteps(props: { data: OverviewResult; library: string; libraryRoot: string | undefined }): React.JSX.Element | null {
  const { t } = useI18n()
  const { navigate: go, setRoot, root } = useAppState()
  // the steps count this library's tasks: the Reflect and Workspaces screens open on its data root, not another one
  const navigate = (to: Route): void => {
    if (props.libraryRoot && props.libraryRoot !== root && (to.screen === 'reflect' || to.screen === 'workspaces')) setRoot(props.libraryRoot)
    go(to)
  }
  const [hidden, setHidden] = useState(() => readFlag('nextStepsHidden'))
  const firstSkill = props.data.graph.nodes[0]?.id
  const steps = nextSteps(props.data, props.library, { browsed: readFlag('browsed'), rated: readFlag('rated') }, firstSkill, !props.libraryRoot)
  const current = steps.find((s) => !s.done)
  if (hidden || !current) return null
  return (
    <section className="panel next-steps" aria-labelledby="next-title" data-testid="next-steps">
      <div className="next-head">
        <h2 id="next-title">{t('next.title')}</h2>
        <div className="spacer" />
        <button type="button" className="btn btn-small btn-ghost" onClick={() => setHidden(true)}>
          {t('next.hide')}
        </button>
      </div>
      <ol className="steps">
        {steps.map((s) => (
          <li key={s.key} className={s.done ? 'step step-done' : s === current ? 'step step-current' : 'step'}>
            <span className="step-mark" aria-hidden="true">
              {s.done ? '✓' : '•'}
            </span>
            {s === current ? (
              <button type="button" className="btn btn-primary" data-testid={`next-${s.key}`} onClick={() => navigate(s.route)}>
                {t(s.label, s.vars)}
              </button>
            ) : (
              <button type="button" className="link" data-testid={`next-${s.key}`} onClick={() => navigate(s.route)}>
                {t(s.label, s.vars)}
                {s.done && <span className="sr-only"> ({t('next.done')})</span>}
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  )
}

function Card(props: { label: string; value: number; onClick?: () => void; tone?: 'bad'; testId?: string }): React.JSX.Element {
  const body = (
    <>
      <span className={props.tone === 'bad' ? 'card-value bad-text' : 'card-value'}>{props.value}</span>
      <span className="card-label">{props.label}</span>
    </>
  )
  return props.onClick ? (
    <button type="button" className="card card-button" onClick={props.onClick} data-testid={props.testId}>
      {body}
    </button>
  ) : (
    <div className="card" data-testid={props.testId}>
      {body}
    </div>
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

const nodeRadius = (n: { quality: number }): number => 5 + n.quality * 6
/** How far a dot's drawing reaches from its centre: its protected ring, else its outline as the keyboard's (3 wide). */
const nodeReach = (n: PlacedNode): number => nodeRadius(n) + (n.protected ? 3.5 + 0.6 : 1.5)

/**
 * The similarity graph: colour = cluster, red edges = pairs similar enough to merge; a dashed ring marks a
 * protected skill (curation leaves it alone, so its pairs are grey and dashed: the plan will not merge them).
 * One tab stop: arrows move between skills, Enter opens one.
 */
export function ClusterMap(props: { graph: OverviewResult['graph']; threshold: number; onOpen: (id: string) => void }): React.JSX.Element {
  const { t, lang } = useI18n()
  const size = 520
  const [hover, setHover] = useState<string | null>(null)
  const [focused, setFocused] = useState(0)
  // a big library: its largest clusters named, faint links only around the skill pointed at, loose skills on request
  const dense = props.graph.nodes.length >= DENSE_AT
  const [showLoose, setShowLoose] = useState(false)
  const loose = useMemo(() => props.graph.nodes.filter((n) => n.cluster < 0).length, [props.graph.nodes])
  const hideLoose = dense && !showLoose && loose < props.graph.nodes.length
  const drawn = useMemo(() => (hideLoose ? props.graph.nodes.filter((n) => n.cluster >= 0) : props.graph.nodes), [hideLoose, props.graph.nodes])
  // every dot wholly inside the map, its outline and ring too
  const layout = useMemo(() => fitInside(layoutClusters(drawn, size, hideLoose ? DENSE_RING : undefined, dense ? NAMED_CLUSTERS : 0), size, nodeReach), [drawn, hideLoose, dense])
  const pos = useMemo(() => new Map(layout.nodes.map((n) => [n.id, n])), [layout])
  const protectedIds = useMemo(() => new Set(props.graph.nodes.filter((n) => n.protected).map((n) => n.id)), [props.graph.nodes])
  const titles = useMemo(() => props.graph.nodes.map((n) => n.title), [props.graph.nodes])
  // labels placed by the widths the browser draws them at, clear of every dot and of each other
  const measure = useMemo(() => textMeasure(12), [])
  const { labels, cut } = useMemo(
    () => (dense ? clusterLabels(layout.nodes, layout.clusters, size, NAMED_CLUSTERS, titles, nodeReach, measure) : { labels: placeLabels(layout.nodes, size, nodeReach, measure), cut: [] }),
    [dense, layout, titles, measure]
  )
  // the nodes drawn changed (the loose skills shown or hidden, a new graph): the keyboard stays on its skill if it is
  // still drawn, else on the nearest place that is; an index past the end would step from where nothing is drawn
  const [focusedIn, setFocusedIn] = useState(layout.nodes)
  if (focusedIn !== layout.nodes) {
    const id = focusedIn[focused]?.id
    const kept = id === undefined ? -1 : layout.nodes.findIndex((n) => n.id === id)
    setFocusedIn(layout.nodes)
    setFocused(kept >= 0 ? kept : Math.max(0, Math.min(focused, layout.nodes.length - 1)))
  }
  const dupEdges = props.graph.edges.filter((e) => e.similarity > props.threshold)
  const duplicates = dupEdges.filter((e) => !protectedIds.has(e.source) && !protectedIds.has(e.target)).length
  const protectedPairs = dupEdges.length - duplicates
  if (props.graph.nodes.length === 0) return <p className="muted">{t('overview.noSkills')}</p>
  const at = Math.min(focused, layout.nodes.length - 1)
  const active = layout.nodes[at]
  const hovered = hover ? pos.get(hover) : undefined
  const onKey = (e: React.KeyboardEvent): void => {
    const step: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }
    if (e.key in step) {
      e.preventDefault()
      const next = (at + step[e.key]! + layout.nodes.length) % layout.nodes.length
      setFocused(next)
      setHover(layout.nodes[next]!.id)
    } else if ((e.key === 'Enter' || e.key === ' ') && active) {
      e.preventDefault()
      props.onOpen(active.id)
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault()
      const next = e.key === 'Home' ? 0 : layout.nodes.length - 1
      setFocused(next)
      setHover(layout.nodes[next]!.id)
    }
  }
  return (
    <div className="cluster-map">
      <svg
        viewBox={`0 0 ${size} ${size}`}
        role="application"
        tabIndex={0}
        aria-roledescription={t('overview.mapRole')}
        aria-label={t('overview.mapAria', { nodes: props.graph.nodes.length, clusters: layout.clusters.length, duplicates })}
        aria-activedescendant={active ? `map-node-${active.id}` : undefined}
        data-testid="cluster-map"
        onKeyDown={onKey}
        onFocus={() => active && setHover(active.id)}
        onBlur={() => setHover(null)}
      >
        {props.graph.edges.map((e, i) => {
          const a = pos.get(e.source)
          const b = pos.get(e.target)
          if (!a || !b) return null
          const dup = e.similarity > props.threshold
          if (dense && !dup && e.source !== hover && e.target !== hover) return null
          const held = dup && (protectedIds.has(e.source) || protectedIds.has(e.target))
          return (
            <line
              key={i}
              x1={a.x}
              y1={a.y}
              x2={b.x}
              y2={b.y}
              className={held ? 'edge edge-held' : dup ? 'edge edge-dup' : 'edge'}
              strokeWidth={dup ? 2.5 : 1}
              strokeOpacity={dup ? 0.9 : 0.15 + e.similarity * 0.6}
              data-testid={held ? 'edge-held' : dup ? 'edge-dup' : undefined}
            >
              <title>{`${e.similarity.toFixed(2)}`}</title>
            </line>
          )
        })}
        {layout.nodes.map((n, i) => (
          <g key={n.id} id={`map-node-${n.id}`} className={n === active && hover === n.id ? 'node node-active' : 'node'} role="img" aria-label={`${n.title} (${n.quality.toFixed(2)})${n.protected ? `, ${t(n.protected === 'pinned' ? 'overview.pinned' : 'overview.protected')}` : ''}`} onMouseEnter={() => setHover(n.id)} onMouseLeave={() => setHover(null)}>
            <circle
              cx={n.x}
              cy={n.y}
              r={nodeRadius(n)}
              fill={n.cluster < 0 ? 'var(--muted)' : PALETTE[n.cluster % PALETTE.length]}
              onClick={() => {
                setFocused(i)
                props.onOpen(n.id)
              }}
              data-testid="map-node"
            >
              <title>{n.title}</title>
            </circle>
            {n.protected && <circle cx={n.x} cy={n.y} r={nodeRadius(n) + 3.5} className="node-ring" data-testid="map-node-protected" />}
          </g>
        ))}
        {labels
          .filter((l) => l.id !== hover)
          .map((l) => (
            <text key={l.id} x={l.x} y={l.y} textAnchor={l.anchor} className="node-label" aria-hidden="true">
              {l.text}
            </text>
          ))}
        {hovered && <HoverLabel node={hovered} size={size} />}
      </svg>
      <p className="muted small">
        {t('overview.mapLegend', { clusters: layout.clusters.length, duplicates })}
        {dense && ` ${t('overview.mapDense')}`}
        {cut.length > 0 && <span data-testid="map-names-cut">{` ${t('overview.mapNamesCut', { names: cut.join(lang === 'zh' ? '、' : ', ') })}`}</span>}
      </p>
      {dense && loose > 0 && loose < props.graph.nodes.length && (
        <p className="small">
          <button type="button" className="link" onClick={() => setShowLoose(!showLoose)} data-testid="map-show-loose">
            {t(hideLoose ? 'overview.mapShowLoose' : 'overview.mapHideLoose', { n: loose })}
          </button>
        </p>
      )}
      {protectedPairs > 0 && <p className="muted small" data-testid="map-protected-note">{t('overview.mapProtected', { n: protectedPairs })}</p>}
    </div>
  )
}

/** The full title of the hovered or focused skill, kept inside the map. */
function HoverLabel(props: { node: { x: number; y: number; title: string; quality: number }; size: number }): React.JSX.Element {
  const { node, size } = props
  const text = node.title
  const measure = useMemo(() => textMeasure(11), [])
  const width = Math.min(size - 8, measure(text) + 4)
  const x = Math.max(4 + width / 2, Math.min(size - 4 - width / 2, node.x))
  const above = node.y - nodeRadius(node) - 8
  const y = above > 16 ? above : node.y + nodeRadius(node) + 18
  return (
    <g className="hover-label" aria-hidden="true">
      <rect x={x - width / 2} y={y - 13} width={width} height={18} rx={3} />
      <text x={x} y={y} textAnchor="middle">
        {text}
      </text>
    </g>
  )
}
