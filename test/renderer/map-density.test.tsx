// @vitest-environment jsdom
/**
 * The Library map of a big library (features/overview/map-density): its largest clusters named, faint links only
 * around the skill pointed at, the skills in no cluster left out until asked for; a small library's map unchanged.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { labelWidth, layoutClusters, ringOrder } from '../../src/renderer/features/overview/cluster-layout'
import { clusterName } from '../../src/renderer/features/overview/cluster-names'
import { clusterLabels, DENSE_AT, DENSE_RING, NAMED_CLUSTERS } from '../../src/renderer/features/overview/map-density'
import { ClusterMap } from '../../src/renderer/features/overview/OverviewScreen'
import { I18nProvider } from '../../src/renderer/i18n/i18n'
import type { OverviewResult } from '../../src/shared/api'

type Graph = OverviewResult['graph']

afterEach(cleanup)

/** `clustered` skills in clusters of 12, 6, 3 then pairs, `loose` in none; a faint link from every skill to the first, a strong one inside each pair. */
function graph(clustered: number, loose: number): Graph {
  const sizes = [12, 6, 3]
  const nodes: Graph['nodes'] = []
  let cluster = 0
  let left = 0
  for (let i = 0; i < clustered; i++) {
    if (left === 0) {
      left = sizes[cluster] ?? 2
      cluster++
    }
    left--
    const word = cluster === 1 ? 'automation' : cluster === 2 ? 'notion' : `topic${cluster}`
    nodes.push({ id: `c${i}`, title: `${word}-skill-${i}`, quality: 0.5, cluster: cluster - 1 })
  }
  for (let i = 0; i < loose; i++) nodes.push({ id: `l${i}`, title: `Loose skill ${i}`, quality: 0.5, cluster: -1 })
  const edges = nodes.slice(1).map((n) => ({ source: nodes[0]!.id, target: n.id, similarity: 0.3 }))
  return { nodes, edges }
}

function draw(g: Graph): HTMLElement {
  render(
    <I18nProvider lang="en" setLang={() => undefined}>
      <ClusterMap graph={g} threshold={0.7} onOpen={() => undefined} />
    </I18nProvider>
  )
  return screen.getByTestId('cluster-map')
}

const labels = (map: HTMLElement): string[] => [...map.querySelectorAll('text.node-label')].map((t) => t.textContent ?? '')

describe('cluster names', () => {
  it('a word most titles share (3+ letters, not a filler word), else the first title', () => {
    expect(clusterName(['airtable-automation', 'asana-automation', 'notion-helper'])).toBe('automation')
    expect(clusterName(['Use the skill for PDFs', 'Use the skill for Word'])).toBe('Use the skill for PDFs')
    expect(clusterName(['计算器：加减乘除', '计算器：除零保护'])).toBe('计算器')
    expect(clusterName(['One', 'Two'])).toBe('One')
  })

  it('names only clusters of 3 or more, largest first, outside their circle and inside the map', () => {
    const g = graph(12 + 6 + 3 + 2 * 40, 0)
    const layout = layoutClusters(g.nodes, 520, DENSE_RING)
    const placed = clusterLabels(layout.nodes, layout.clusters, 520)
    expect(placed.map((l) => l.text)).toEqual(['automation (12)', 'notion (6)', 'topic3 (3)'])
    for (const l of placed) {
      expect(l.x).toBeGreaterThan(0)
      expect(l.x).toBeLessThan(520)
      expect(l.y).toBeGreaterThan(0)
      expect(l.y).toBeLessThanOrEqual(520)
    }
  })
})

describe('the ring of a big library', () => {
  it('the largest clusters sit at evenly spaced slots, the others in between', () => {
    expect(ringOrder(['A', 'B', 'C', 'd', 'e', 'f', 'g', 'h', 'i'], 3)).toEqual(['A', 'd', 'e', 'B', 'f', 'g', 'C', 'h', 'i'])
    expect(ringOrder(['A', 'b'], 8)).toEqual(['A', 'b'])
    expect(ringOrder(['A', 'b', 'c'], 0)).toEqual(['A', 'b', 'c'])
  })

  it('the named clusters are spread around the ring and their names do not overlap', () => {
    // 12, 6, 3 then 40 pairs: side by side at the top before, a name's width apart at most
    const g = graph(12 + 6 + 3 + 2 * 40, 0)
    const layout = layoutClusters(g.nodes, 520, DENSE_RING, NAMED_CLUSTERS)
    const centre = (cluster: number) => layout.clusters.find((c) => c.cluster === cluster)!
    const angle = (cluster: number) => Math.atan2(centre(cluster).y - 260, centre(cluster).x - 260)
    const apart = (a: number, b: number) => {
      const d = Math.abs(angle(a) - angle(b)) % (2 * Math.PI)
      return Math.min(d, 2 * Math.PI - d)
    }
    // 43 clusters, the 8 largest every 43/8 slots: 5 slots = 2π·5/43 apart at least
    for (const [a, b] of [[0, 1], [1, 2], [0, 2]] as const) expect(apart(a, b)).toBeGreaterThanOrEqual((2 * Math.PI * 5) / 43 - 1e-9)
    const placed = clusterLabels(layout.nodes, layout.clusters, 520)
    expect(placed.map((l) => l.text)).toEqual(['automation (12)', 'notion (6)', 'topic3 (3)'])
    const boxes = placed.map((l) => ({ x0: l.x - labelWidth(l.text) / 2, x1: l.x + labelWidth(l.text) / 2, y0: l.y - 11, y1: l.y + 4 }))
    const overlap = (a: (typeof boxes)[number], b: (typeof boxes)[number]) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
    for (const [i, a] of boxes.entries()) for (const b of boxes.slice(i + 1)) expect(overlap(a, b)).toBe(false)
  })

  it('a name goes round its circle to a spot clear of other dots, on the side away from the centre', () => {
    // a cluster of 4 right of the centre, a lone skill's dot just where its name would go first (further out)
    const members = [0, 1, 2, 3].map((j) => ({ id: `m${j}`, title: `zoho-${j}`, quality: 0.5, cluster: 0, x: 400 + 20 * Math.cos((j * Math.PI) / 2), y: 260 + 20 * Math.sin((j * Math.PI) / 2) }))
    const lone = { id: 'x', title: 'other', quality: 0.5, cluster: 1, x: 400 + 42 + 20, y: 260 }
    const [label] = clusterLabels([...members, lone], [{ cluster: 0, x: 400, y: 260, size: 4 }, { cluster: 1, x: lone.x, y: lone.y, size: 1 }], 520)
    expect(label!.text).toBe('zoho (4)')
    const w = labelWidth(label!.text)
    const b = { x0: label!.x - w / 2, x1: label!.x + w / 2, y0: label!.y - 11, y1: label!.y + 4 }
    for (const n of [...members, lone]) expect(b.x0 < n.x + 11 && n.x - 11 < b.x1 && b.y0 < n.y + 11 && n.y - 11 < b.y1, n.id).toBe(false)
    expect(label!.x).toBeGreaterThanOrEqual(400)
  })
})

describe('the map of a big library', () => {
  it(`from ${DENSE_AT} skills: cluster names, no faint links until a skill is focused, loose skills on request`, () => {
    const g = graph(120, 150)
    const map = draw(g)
    expect(screen.getAllByTestId('map-node')).toHaveLength(120)
    expect(labels(map)).toEqual(['automation (12)', 'notion (6)', 'topic3 (3)'])
    expect(map.querySelectorAll('line.edge')).toHaveLength(0)
    // the keyboard's skill (the first) shows its faint links
    fireEvent.focus(map)
    expect(map.querySelectorAll('line.edge').length).toBe(119)
    fireEvent.blur(map)
    const toggle = screen.getByTestId('map-show-loose')
    expect(toggle.textContent).toBe('Also draw the 150 skills in no cluster')
    fireEvent.click(toggle)
    expect(screen.getAllByTestId('map-node')).toHaveLength(270)
    expect(screen.getByTestId('map-show-loose').textContent).toBe('Hide the 150 skills in no cluster')
    expect(map.getAttribute('aria-label')).toMatch(/^Similarity map: 270 skills/)
  })

  it('after the loose skills are shown or hidden, the arrow keys step from the skill the keyboard is on', () => {
    const map = draw(graph(120, 150))
    const drawnIds = (): string[] => [...map.querySelectorAll('g[id^="map-node-"]')].map((g) => g.id)
    const active = (): string => map.getAttribute('aria-activedescendant') ?? ''
    const toggle = (): void => void fireEvent.click(screen.getByTestId('map-show-loose'))
    const key = (k: string): void => void fireEvent.keyDown(map, { key: k })
    // on the last of all 270 (a loose skill), then the loose ones hidden: on the last of the 120 drawn
    toggle()
    key('End')
    expect(active()).toBe(drawnIds()[269])
    toggle()
    expect(drawnIds()).toHaveLength(120)
    expect(active()).toBe(drawnIds()[119])
    key('ArrowLeft')
    expect(active()).toBe(drawnIds()[118])
    key('ArrowRight')
    key('ArrowRight')
    expect(active()).toBe(drawnIds()[0])
    // on a skill in a cluster: still on it after showing the loose skills, its neighbour next
    key('ArrowLeft')
    const on = active()
    expect(drawnIds().indexOf(on)).toBe(119)
    toggle()
    expect(drawnIds()).toHaveLength(270)
    expect(active()).toBe(on)
    const now = drawnIds().indexOf(on)
    key('ArrowRight')
    expect(active()).toBe(drawnIds()[(now + 1) % 270])
  })

  it('a library with no clusters at all still draws every skill', () => {
    draw(graph(0, DENSE_AT))
    expect(screen.getAllByTestId('map-node')).toHaveLength(DENSE_AT)
    expect(screen.queryByTestId('map-show-loose')).toBeNull()
  })

  it(`below ${DENSE_AT} skills: every skill, its faint links and per-skill labels, as before`, () => {
    const g = graph(30, 20)
    const map = draw(g)
    expect(screen.getAllByTestId('map-node')).toHaveLength(50)
    expect(map.querySelectorAll('line.edge')).toHaveLength(49)
    expect(labels(map).some((l) => l.startsWith('Loose skill') || l.includes('-skill-'))).toBe(true)
    expect(screen.queryByTestId('map-show-loose')).toBeNull()
  })
})
