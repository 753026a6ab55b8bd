/**
 * A big library's map (pure): past DENSE_AT skills, per-skill labels and every faint link make a hairball, so the
 * map names its largest clusters instead (the word of its members' titles that tells it apart: cluster-names.ts),
 * draws the faint links of the skill under the pointer or the keyboard only, and leaves the skills in no cluster
 * out until asked for.
 */
import { graphemes } from '../../components/format'
import { dotBox, insideMap, LABEL_ASCENT, LABEL_DESCENT, labelWidth, MAP_MARGIN, overlaps, shortLabel } from './cluster-layout'
import type { Box, ClusterLabel, Measure, PlacedLabel, PlacedNode } from './cluster-layout'
import { clusterNames } from './cluster-names'

/** From this many skills the map is drawn the dense way. */
export const DENSE_AT = 200
/** At most this many clusters are named. */
export const NAMED_CLUSTERS = 8

/** The clusters' ring when the unclustered skills are left out: their outer ring's room goes to the clusters. */
export const DENSE_RING = 0.33

/** The names of the largest clusters as drawn, and the whole names of those drawn shortened or not at all. */
export interface ClusterNameLabels {
  labels: PlacedLabel[]
  /** "name (size)" of each named cluster whose name was cut with an ellipsis or left out for lack of room, largest first. */
  cut: string[]
}

/**
 * Labels for the largest clusters (at least 3 members, largest first, at most `max`): "name (size)" at the first spot
 * that overlaps no dot (as far as it `reach`es: its outline, its protected ring) and no name already placed, inside
 * the `size`×`size` map: just outside the cluster's circle of members on the side away from the map's centre, then
 * round the circle up to 90° either way (22.5° at a time), a little further out each round; then in the middle of its
 * circle; then just inside it, on the side towards the map's centre. Where no spot is free the name is cut with an
 * ellipsis, shorter and shorter (its size kept), and tried again; one that fits nowhere even so is left out. Both are
 * in `cut`, for the legend. Names are told apart against the titles of the whole `library` (by default the placed nodes'); `measure`
 * gives a text's width in the label font. Pure and deterministic: the same map, the same labels.
 */
export function clusterLabels(
  nodes: readonly PlacedNode[],
  clusters: readonly ClusterLabel[],
  size: number,
  max = NAMED_CLUSTERS,
  library: readonly string[] = nodes.map((n) => n.title),
  reach: (n: PlacedNode) => number = () => 12,
  measure: Measure = labelWidth
): ClusterNameLabels {
  const labels: PlacedLabel[] = []
  const cut: string[] = []
  const placed: Box[] = []
  const dots: Box[] = nodes.map((n) => dotBox(n, reach(n)))
  const named = [...clusters]
    .filter((c) => c.size >= 3)
    .sort((a, b) => b.size - a.size || a.cluster - b.cluster)
    .slice(0, max)
  const members = new Map(named.map((c) => [c.cluster, nodes.filter((n) => n.cluster === c.cluster)]))
  const names = clusterNames(
    named.map((c) => (members.get(c.cluster) ?? []).map((n) => n.title)),
    library,
    shortLabel
  )
  for (const [i, c] of named.entries()) {
    const name = names[i] ?? ''
    const whole = `${name} (${c.size})`
    const own = members.get(c.cluster) ?? []
    // from the cluster's centre to just past its dots
    const gap = Math.max(0, ...own.map((n) => Math.hypot(n.x - c.x, n.y - c.y) + reach(n))) + 3
    const away = Math.hypot(c.x - size / 2, c.y - size / 2)
    const towards = away < 1 ? -Math.PI / 2 : Math.atan2(c.y - size / 2, c.x - size / 2)
    let found: { text: string; box: Box } | undefined
    for (const text of shortenings(name, c.size)) {
      const free = spots(c, gap, towards, measure(text), size).find((b) => insideMap(b, size) && !placed.some((o) => overlaps(o, b)) && !dots.some((d) => overlaps(d, b)))
      if (free) {
        found = { text, box: free }
        break
      }
    }
    if (found?.text !== whole) cut.push(whole)
    if (!found) continue
    // names keep a little apart
    placed.push({ x0: found.box.x0 - 2, y0: found.box.y0 - 2, x1: found.box.x1 + 2, y1: found.box.y1 + 2 })
    labels.push({ id: `cluster-${c.cluster}`, text: found.text, x: (found.box.x0 + found.box.x1) / 2, y: found.box.y1 - LABEL_DESCENT, anchor: 'middle' })
  }
  return { labels, cut }
}

/** A cluster's name whole, then cut with an ellipsis ever shorter (2 characters at the least), its size kept. */
function shortenings(name: string, size: number): string[] {
  const chars = graphemes(name)
  const out = [`${name} (${size})`]
  for (let keep = chars.length - 1; keep >= 2; keep--) out.push(`${chars.slice(0, keep).join('')}… (${size})`)
  return out
}

/** How far beyond the circle's edge each round of spots goes: on the outer half; on the inner half only the near ones (further in, a name reads as another cluster's or the map's centre's). */
const ROUNDS = [0, 8, 16, 26]
const INNER_ROUNDS = [0, 8]
/** The outer half: away from the centre, then up to 90° round either way, 22.5° at a time. */
const OUTER = [0, 1, -1, 2, -2, 3, -3, 4, -4]
/** The inner half, towards the map's centre. */
const INNER = [5, -5, 6, -6, 7, -7, 8]

/**
 * The boxes a name `w` wide may take around a cluster whose dots end `gap` from its centre, in order of preference,
 * each moved inside the `size`×`size` map: the outer half round by round, the middle of the circle, the inner half.
 */
function spots(c: { x: number; y: number }, gap: number, towards: number, w: number, size: number): Box[] {
  const h = LABEL_ASCENT + LABEL_DESCENT
  const around = (ks: number[], rounds: number[]): Box[] =>
    rounds.flatMap((more) =>
      ks.map((k) => {
        const a = towards + (k * Math.PI) / 8
        // the box's near side, not its middle, at the distance (a wide name beside the circle clears it)
        const r = gap + more
        return within(c.x + Math.cos(a) * (r + (w / 2) * Math.abs(Math.cos(a))), c.y + Math.sin(a) * (r + (h / 2) * Math.abs(Math.sin(a))), w, h, size)
      })
    )
  return [...around(OUTER, ROUNDS), within(c.x, c.y, w, h, size), ...around(INNER, INNER_ROUNDS)]
}

/** The box `w`×`h` centred at (x, y), moved inside the `size`×`size` map (MAP_MARGIN from its edge) if it fits in it. */
function within(x: number, y: number, w: number, h: number, size: number): Box {
  const cx = Math.max(MAP_MARGIN + w / 2, Math.min(size - MAP_MARGIN - w / 2, x))
  const cy = Math.max(MAP_MARGIN + h / 2, Math.min(size - MAP_MARGIN - h / 2, y))
  return { x0: cx - w / 2, x1: cx + w / 2, y0: cy - h / 2, y1: cy + h / 2 }
}
