/**
 * Deterministic circular-by-cluster layout for the library map (pure): clusters sit on a ring,
 * their members on a small circle around the cluster's centre; unclustered skills (cluster < 0)
 * form an outer ring. Same input → same picture.
 */
export interface GraphNode {
  id: string
  title: string
  quality: number
  cluster: number
  protected?: 'pinned' | 'edited'
}

export interface PlacedNode extends GraphNode {
  x: number
  y: number
}

export interface ClusterLabel {
  cluster: number
  x: number
  y: number
  size: number
}

/**
 * The ring's order of clusters given largest first: the `spread` largest at evenly spaced slots (the largest first,
 * at the top), the others in between in their order, so the largest clusters (and their names) sit apart.
 */
export function ringOrder<T>(ordered: readonly T[], spread: number): T[] {
  const n = ordered.length
  const k = Math.min(Math.max(0, Math.floor(spread)), n)
  if (k <= 1) return [...ordered]
  const slots: (T | undefined)[] = new Array<T | undefined>(n).fill(undefined)
  for (let j = 0; j < k; j++) slots[Math.floor((j * n) / k)] = ordered[j]
  let next = k
  return slots.map((s) => s ?? (ordered[next++] as T))
}

/**
 * Places every node inside a `size`×`size` square; the clusters' ring has a radius of `ring`×size (wider when no
 * outer ring of unclustered skills needs the room), the largest clusters first, side by side, unless the `spread`
 * largest are spread around it (ringOrder).
 */
export function layoutClusters(nodes: readonly GraphNode[], size: number, ring = 0.27, spread = 0): { nodes: PlacedNode[]; clusters: ClusterLabel[] } {
  const centre = size / 2
  const groups = new Map<number, GraphNode[]>()
  const noise: GraphNode[] = []
  for (const node of [...nodes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (node.cluster < 0) noise.push(node)
    else groups.set(node.cluster, [...(groups.get(node.cluster) ?? []), node])
  }
  const ordered = ringOrder([...groups.entries()].sort((a, b) => b[1].length - a[1].length || a[0] - b[0]), spread)
  const placed: PlacedNode[] = []
  const labels: ClusterLabel[] = []
  const ringRadius = ordered.length <= 1 ? 0 : size * ring
  ordered.forEach(([cluster, members], i) => {
    const angle = (2 * Math.PI * i) / Math.max(1, ordered.length) - Math.PI / 2
    const cx = centre + ringRadius * Math.cos(angle)
    const cy = centre + ringRadius * Math.sin(angle)
    const r = members.length === 1 ? 0 : Math.min(ordered.length === 1 ? size * 0.22 : size * 0.14, 28 + members.length * 6)
    members.forEach((node, j) => {
      const a = (2 * Math.PI * j) / members.length
      placed.push({ ...node, x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) })
    })
    labels.push({ cluster, x: cx, y: cy, size: members.length })
  })
  const outer = size * 0.46
  noise.forEach((node, j) => {
    const a = (2 * Math.PI * j) / noise.length + Math.PI / 7
    placed.push({ ...node, x: centre + outer * Math.cos(a), y: centre + outer * Math.sin(a) })
  })
  return { nodes: placed, clusters: labels }
}

/**
 * The layout moved towards the map's centre just enough that every dot, as far as it `reach`es (its radius with its
 * outline, or its protected ring), stays `margin` inside the `size`×`size` map (pure; an unchanged layout when it
 * already does). The clusters' centres move with their members.
 */
export function fitInside(
  layout: { nodes: PlacedNode[]; clusters: ClusterLabel[] },
  size: number,
  reach: (n: PlacedNode) => number,
  margin = MAP_MARGIN
): { nodes: PlacedNode[]; clusters: ClusterLabel[] } {
  const c = size / 2
  let scale = 1
  for (const n of layout.nodes) {
    const room = c - margin - reach(n)
    for (const d of [Math.abs(n.x - c), Math.abs(n.y - c)]) if (d > room) scale = Math.min(scale, Math.max(0, room) / d)
  }
  if (scale >= 1) return layout
  const move = <T extends { x: number; y: number }>(p: T): T => ({ ...p, x: c + (p.x - c) * scale, y: c + (p.y - c) * scale })
  return { nodes: layout.nodes.map(move), clusters: layout.clusters.map(move) }
}

export interface PlacedLabel {
  id: string
  text: string
  x: number
  y: number
  anchor: 'middle' | 'start' | 'end'
}

/** What a map's labels keep clear of the map's edge, in the map's units. */
export const MAP_MARGIN = 2
/** A label's box from its baseline, in the map's 12px font: its ascent and descent, with room (a CJK fallback font's too). */
export const LABEL_ASCENT = 12
export const LABEL_DESCENT = 4
const LABEL_MAX_CHARS = 26

/** The width of a text in the map's label font (12px), in the map's units: a measure of the real font, or labelWidth. */
export type Measure = (text: string) => number

/** Estimated width of a label in the map's 12px font, a little wide: CJK characters are about twice as wide. */
export function labelWidth(text: string): number {
  let w = 0
  for (const ch of text) w += /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 12.5 : /[A-Z0-9]/.test(ch) ? 8.2 : 7.2
  return w + 4
}

/** A title cut to fit a label. */
export function shortLabel(title: string): string {
  const chars = [...title]
  return chars.length > LABEL_MAX_CHARS ? `${chars.slice(0, LABEL_MAX_CHARS - 1).join('')}…` : title
}

export interface Box {
  x0: number
  y0: number
  x1: number
  y1: number
}

export const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1

/** The box of a label `w` wide as drawn from its anchor (x, baseline y). */
export function labelBox(l: Pick<PlacedLabel, 'x' | 'y' | 'anchor'>, w: number): Box {
  const x0 = l.anchor === 'middle' ? l.x - w / 2 : l.anchor === 'start' ? l.x : l.x - w
  return { x0, y0: l.y - LABEL_ASCENT, x1: x0 + w, y1: l.y + LABEL_DESCENT }
}

/** True when the box lies `margin` inside the `size`×`size` map. */
export const insideMap = (b: Box, size: number, margin = MAP_MARGIN): boolean => b.x0 >= margin && b.y0 >= margin && b.x1 <= size - margin && b.y1 <= size - margin

/** The square a dot covers, as far as it `reach`es. */
export const dotBox = (n: { x: number; y: number }, reach: number): Box => ({ x0: n.x - reach, y0: n.y - reach, x1: n.x + reach, y1: n.y + reach })

/**
 * Labels that neither overlap each other nor the dots (as far as they `reach`), nor leave the `size`×`size` map
 * (pure). Each node tries above, below, right and left of its dot; a label that fits nowhere is left out (the title
 * still shows on hover and focus). Nodes are labelled in the given priority order; `measure` gives a text's width.
 */
export function placeLabels(nodes: readonly PlacedNode[], size: number, reach: (n: PlacedNode) => number, measure: Measure = labelWidth): PlacedLabel[] {
  const taken: Box[] = nodes.map((n) => dotBox(n, reach(n)))
  const out: PlacedLabel[] = []
  for (const n of nodes) {
    const text = shortLabel(n.title)
    const w = measure(text)
    const r = reach(n)
    const candidates: PlacedLabel[] = [
      { id: n.id, text, x: n.x, y: n.y - r - LABEL_DESCENT - 1, anchor: 'middle' },
      { id: n.id, text, x: n.x, y: n.y + r + LABEL_ASCENT + 1, anchor: 'middle' },
      { id: n.id, text, x: n.x + r + 3, y: n.y + 4, anchor: 'start' },
      { id: n.id, text, x: n.x - r - 3, y: n.y + 4, anchor: 'end' }
    ]
    for (const c of candidates) {
      const box = labelBox(c, w)
      if (!insideMap(box, size)) continue
      if (taken.some((t) => overlaps(t, box))) continue
      taken.push(box)
      out.push(c)
      break
    }
  }
  return out
}
