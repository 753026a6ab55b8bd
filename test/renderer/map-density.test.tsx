// @vitest-environment jsdom
/**
 * The Library map of a big library (features/overview/map-density): its largest clusters named, faint links only
 * around the skill pointed at, the skills in no cluster left out until asked for; a small library's map unchanged.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { dotBox, fitInside, insideMap, labelBox, labelWidth, layoutClusters, overlaps, ringOrder } from '../../src/renderer/features/overview/cluster-layout'
import type { PlacedNode } from '../../src/renderer/features/overview/cluster-layout'
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
    const placed = clusterLabels(layout.nodes, layout.clusters, 520).labels
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
    const placed = clusterLabels(layout.nodes, layout.clusters, 520).labels
    expect(placed.map((l) => l.text)).toEqual(['automation (12)', 'notion (6)', 'topic3 (3)'])
    const boxes = placed.map((l) => labelBox(l, labelWidth(l.text)))
    const overlap = (a: (typeof boxes)[number], b: (typeof boxes)[number]) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
    for (const [i, a] of boxes.entries()) for (const b of boxes.slice(i + 1)) expect(overlap(a, b)).toBe(false)
  })

  it('a name goes round its circle to a spot clear of other dots, on the side away from the centre', () => {
    // a cluster of 4 right of the centre, a lone skill's dot just where its name would go first (further out)
    const members = [0, 1, 2, 3].map((j) => ({ id: `m${j}`, title: `zoho-${j}`, quality: 0.5, cluster: 0, x: 400 + 20 * Math.cos((j * Math.PI) / 2), y: 260 + 20 * Math.sin((j * Math.PI) / 2) }))
    const lone = { id: 'x', title: 'other', quality: 0.5, cluster: 1, x: 400 + 42 + 20, y: 260 }
    const [label] = clusterLabels([...members, lone], [{ cluster: 0, x: 400, y: 260, size: 4 }, { cluster: 1, x: lone.x, y: lone.y, size: 1 }], 520).labels
    expect(label!.text).toBe('zoho (4)')
    const b = labelBox(label!, labelWidth(label!.text))
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

describe('names clear of every dot, dots inside the map', () => {
  // a cluster of 8 round (260, 260) at `radius`, the rest of the map filled with other skills' dots 20 apart
  function crowded(radius: number): { nodes: PlacedNode[]; clusters: { cluster: number; x: number; y: number; size: number }[] } {
    const members = Array.from({ length: 8 }, (_, j) => ({ id: `m${j}`, title: `verylongclustername-${j}`, quality: 0.5, cluster: 0, x: 260 + radius * Math.cos((j * Math.PI) / 4), y: 260 + radius * Math.sin((j * Math.PI) / 4) }))
    const others: PlacedNode[] = []
    for (let x = 10; x <= 510; x += 20) for (let y = 10; y <= 510; y += 20) if (Math.hypot(x - 260, y - 260) > radius + 20) others.push({ id: `o${x}-${y}`, title: `other ${x} ${y}`, quality: 0.5, cluster: 1 + others.length, x, y })
    return { nodes: [...members, ...others], clusters: [{ cluster: 0, x: 260, y: 260, size: 8 }] }
  }

  it('a name with no free spot around its cluster is cut with an ellipsis where it fits, clear of every dot, and said whole for the legend', () => {
    const { nodes, clusters } = crowded(60)
    const { labels: placed, cut } = clusterLabels(nodes, clusters, 520)
    expect(placed).toHaveLength(1)
    const label = placed[0]!
    // the longest start of the name that fits in the middle of its circle, its size kept
    expect(label.text).toMatch(/^verylon?g?…\s\(8\)$/)
    expect(cut).toEqual(['verylongclustername (8)'])
    const box = labelBox(label, labelWidth(label.text))
    for (const n of nodes) expect(overlaps(box, dotBox(n, 12)), n.id).toBe(false)
    expect(insideMap(box, 520)).toBe(true)
  })

  it('a name that fits nowhere even cut is left out, never drawn over a dot, and said whole for the legend', () => {
    const { nodes, clusters } = crowded(22)
    const { labels: placed, cut } = clusterLabels(nodes, clusters, 520)
    expect(placed).toEqual([])
    expect(cut).toEqual(['verylongclustername (8)'])
  })

  it('a name is placed by the width the text is drawn at (measure), clear of the dots beside it', () => {
    // a cluster of 4 right of the centre, a lone dot 30 beyond its circle on the outer side: a short name fits between
    // them by the estimate; a name measured twice as wide does not, and goes elsewhere
    const members = [0, 1, 2, 3].map((j) => ({ id: `m${j}`, title: `zoho-${j}`, quality: 0.5, cluster: 0, x: 400 + 20 * Math.cos((j * Math.PI) / 2), y: 260 + 20 * Math.sin((j * Math.PI) / 2) }))
    const lone = { id: 'x', title: 'other', quality: 0.5, cluster: 1, x: 400 + 20 + 12 + 3 + 80, y: 260 }
    const clusters = [{ cluster: 0, x: 400, y: 260, size: 4 }, { cluster: 1, x: lone.x, y: lone.y, size: 1 }]
    const wide = (text: string): number => 2 * labelWidth(text)
    const [label] = clusterLabels([...members, lone], clusters, 520, NAMED_CLUSTERS, undefined, () => 12, wide).labels
    const box = labelBox(label!, wide(label!.text))
    for (const n of [...members, lone]) expect(overlaps(box, dotBox(n, 12)), n.id).toBe(false)
  })

  it('fitInside moves a layout whose dots reach past the edge just inside it, and leaves one that fits alone', () => {
    const nodes: PlacedNode[] = [
      { id: 'top', title: 't', quality: 1, cluster: 0, x: 260, y: 5 },
      { id: 'mid', title: 'm', quality: 1, cluster: 0, x: 300, y: 260 }
    ]
    const reach = (): number => 12.5
    const moved = fitInside({ nodes, clusters: [{ cluster: 0, x: 260, y: 60, size: 2 }] }, 520, reach)
    const top = moved.nodes.find((n) => n.id === 'top')!
    expect(top.y - 12.5).toBeCloseTo(2, 6)
    expect(top.x).toBe(260)
    expect(moved.clusters[0]!.y).toBeGreaterThan(60)
    for (const n of moved.nodes) expect(insideMap(dotBox(n, 12.5), 520)).toBe(true)
    const fits = { nodes: [{ ...nodes[1]! }], clusters: [] }
    expect(fitInside(fits, 520, reach)).toBe(fits)
    // the real layouts: every dot (radius 11, outline 1.5) inside, the loose ring and the dense ring's top cluster
    for (const [ring, n] of [[undefined, 300], [DENSE_RING, 300]] as const) {
      const g = graph(n, ring === undefined ? 400 : 0)
      const laid = fitInside(layoutClusters(g.nodes.map((x) => ({ ...x, quality: 1 })), 520, ring, NAMED_CLUSTERS), 520, reach)
      for (const d of laid.nodes) expect(insideMap(dotBox(d, 12.5), 520), d.id).toBe(true)
    }
  })
})

