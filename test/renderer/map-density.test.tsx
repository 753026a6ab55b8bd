// @vitest-environment jsdom
/**
 * The Library map of a big library (features/overview/map-density): its largest clusters named, faint links only
 * around the skill pointed at, the skills in no cluster left out until asked for; a small library's map unchanged.
 */
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { layoutClusters } from '../../src/renderer/features/overview/cluster-layout'
import { clusterLabels, clusterName, DENSE_AT, DENSE_RING } from '../../src/renderer/features/overview/map-density'
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
