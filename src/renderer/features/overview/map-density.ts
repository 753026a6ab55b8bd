/**
 * A big library's map (pure): past DENSE_AT skills, per-skill labels and every faint link make a hairball, so the
 * map names its largest clusters instead (a word most of its members' titles share, else one member's title),
 * draws the faint links of the skill under the pointer or the keyboard only, and leaves the skills in no cluster
 * out until asked for.
 */
import { labelWidth, shortLabel, type ClusterLabel, type PlacedLabel, type PlacedNode } from './cluster-layout'

/** From this many skills the map is drawn the dense way. */
export const DENSE_AT = 200
/** At most this many clusters are named. */
export const NAMED_CLUSTERS = 8

const STOP = new Set(['the', 'and', 'for', 'with', 'use', 'using', 'when', 'from', 'into', 'your', 'skill', 'skills'])

/** A cluster's name: the word (3+ letters) most of its titles share, else the first title, cut to fit a label. */
export function clusterName(titles: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const title of titles) {
    const words = new Set(title.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => [...w].length >= 3 && !STOP.has(w)))
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1)
  }
  let best = ''
  let most = 0
  for (const [w, n] of [...counts.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (n > most) [best, most] = [w, n]
  }
  return most * 2 > titles.length && most >= 2 ? best : shortLabel(titles[0] ?? '')
}

/** The clusters' ring when the unclustered skills are left out: their outer ring's room goes to the clusters. */
export const DENSE_RING = 0.33

/**
 * Labels for the largest clusters (at least 3 members, largest first, at most `max`): "name (size)" just outside
 * the cluster's circle of members, on the side away from the map's centre (else above, below, beside it or on its
 * centre, where it overlaps no label already placed), kept inside the `size`×`size` map; one that fits nowhere is left out.
 */
export function clusterLabels(nodes: readonly PlacedNode[], clusters: readonly ClusterLabel[], size: number, max = NAMED_CLUSTERS): PlacedLabel[] {
  const out: PlacedLabel[] = []
  const boxes: { x0: number; x1: number; y0: number; y1: number }[] = []
  for (const c of [...clusters].filter((c) => c.size >= 3).sort((a, b) => b.size - a.size || a.cluster - b.cluster)) {
    if (out.length >= max) break
    const members = nodes.filter((n) => n.cluster === c.cluster)
    const text = `${clusterName(members.map((n) => n.title))} (${c.size})`
    const w = labelWidth(text)
    const r = Math.max(0, ...members.map((n) => Math.hypot(n.x - c.x, n.y - c.y))) + 22
    const away = Math.hypot(c.x - size / 2, c.y - size / 2)
    const [dx, dy] = away < 1 ? [0, -1] : [(c.x - size / 2) / away, (c.y - size / 2) / away]
    // away from the centre first, then above, below, right, left of the circle, then on its centre
    const spots: [number, number][] = [
      [c.x + dx * r, c.y + dy * r + 4],
      [c.x, c.y - r + 4],
      [c.x, c.y + r + 4],
      [c.x + r + w / 2, c.y + 4],
      [c.x - r - w / 2, c.y + 4],
      [c.x, c.y + 4]
    ]
    for (const [sx, sy] of spots) {
      const x = Math.max(w / 2 + 2, Math.min(size - w / 2 - 2, sx))
      const y = Math.max(14, Math.min(size - 4, sy))
      const box = { x0: x - w / 2, x1: x + w / 2, y0: y - 11, y1: y + 4 }
      if (boxes.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1)) continue
      boxes.push(box)
      out.push({ id: `cluster-${c.cluster}`, text, x, y, anchor: 'middle' })
      break
    }
  }
  return out
}
