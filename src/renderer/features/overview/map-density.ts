/**
 * A big library's map (pure): past DENSE_AT skills, per-skill labels and every faint link make a hairball, so the
 * map names its largest clusters instead (the word of its members' titles that tells it apart: cluster-names.ts),
 * draws the faint links of the skill under the pointer or the keyboard only, and leaves the skills in no cluster
 * out until asked for.
 */
import { labelWidth, shortLabel, type ClusterLabel, type PlacedLabel, type PlacedNode } from './cluster-layout'
import { clusterNames } from './cluster-names'

/** From this many skills the map is drawn the dense way. */
export const DENSE_AT = 200
/** At most this many clusters are named. */
export const NAMED_CLUSTERS = 8

/** The clusters' ring when the unclustered skills are left out: their outer ring's room goes to the clusters. */
export const DENSE_RING = 0.33

/**
 * Labels for the largest clusters (at least 3 members, largest first, at most `max`): "name (size)" just outside
 * the cluster's circle of members, on the side away from the map's centre, else further round the circle (45° at a
 * time, either way), else on its centre: the first spot up to 90° round that overlaps no label already placed and no
 * dot (of `radius`), else the first that overlaps no label; kept inside the `size`×`size` map; one that fits nowhere
 * is left out. Names are told apart against the titles of the whole `library` (by default the placed nodes').
 */
export function clusterLabels(
  nodes: readonly PlacedNode[],
  clusters: readonly ClusterLabel[],
  size: number,
  max = NAMED_CLUSTERS,
  library: readonly string[] = nodes.map((n) => n.title),
  radius: (n: PlacedNode) => number = () => 11
): PlacedLabel[] {
  const out: PlacedLabel[] = []
  const boxes: Box[] = []
  const dots: Box[] = nodes.map((n) => ({ x0: n.x - radius(n), x1: n.x + radius(n), y0: n.y - radius(n), y1: n.y + radius(n) }))
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
    const text = `${names[i] ?? ''} (${c.size})`
    const w = labelWidth(text)
    const r = Math.max(0, ...(members.get(c.cluster) ?? []).map((n) => Math.hypot(n.x - c.x, n.y - c.y))) + 22
    const away = Math.hypot(c.x - size / 2, c.y - size / 2)
    const towards = away < 1 ? -Math.PI / 2 : Math.atan2(c.y - size / 2, c.x - size / 2)
    // away from the centre first, then round the circle either way, then on its centre
    const spots: Box[] = [0, 1, -1, 2, -2, 3, -3, 4].map((k) => {
      const a = towards + (k * Math.PI) / 4
      // the box's edge, not its middle, at r from the centre (a wide label beside the circle clears it)
      return box(c.x + Math.cos(a) * (r + Math.max(0, w / 2 - 14) * Math.abs(Math.cos(a))), c.y + Math.sin(a) * r + 4, w, size)
    })
    spots.push(box(c.x, c.y + 4, w, size))
    // a spot on the far side of the circle reads as the map's centre's: clear of dots counts on the outer half only
    const free = spots.filter((b) => !boxes.some((o) => overlap(o, b)))
    const spot = free.find((b) => spots.indexOf(b) < OUTER_SPOTS && !dots.some((d) => overlap(d, b))) ?? free[0]
    if (!spot) continue
    boxes.push(spot)
    out.push({ id: `cluster-${c.cluster}`, text, x: (spot.x0 + spot.x1) / 2, y: spot.y1 - 4, anchor: 'middle' })
  }
  return out
}

/** The spots away from the map's centre and up to 90° round the circle either way. */
const OUTER_SPOTS = 5

interface Box {
  x0: number
  x1: number
  y0: number
  y1: number
}

const overlap = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1

/** The box of a label `w` wide whose middle of the baseline is at (x, y), moved inside the `size`×`size` map. */
function box(sx: number, sy: number, w: number, size: number): Box {
  const x = Math.max(w / 2 + 2, Math.min(size - w / 2 - 2, sx))
  const y = Math.max(14, Math.min(size - 4, sy))
  return { x0: x - w / 2, x1: x + w / 2, y0: y - 11, y1: y + 4 }
}
