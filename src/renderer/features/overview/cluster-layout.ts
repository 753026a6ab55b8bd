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

export interface PlacedLabel {
  id: string
  text: string
  x: number
  y: number
  anchor: 'middle' | 'start' | 'end'
}

const LABEL_HEIGHT = 14
const LABEL_MAX_CHARS = 26

/** Approximate width of a label in the map's 11px font: CJK characters are about twice as wide. */
export function labelWidth(text: string): number {
  let w = 0
  for (const ch of text) w += /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/.test(ch) ? 11 : 6.2
  return w + 4
}

/** A title cut to fit a label. */
export function shortLabel(title: string): string {
  const chars = [...title]
  return chars.length > LABEL_MAX_CHARS ? `${chars.slice(0, LABEL_MAX_CHARS - 1).join('')}…` : title
}

interface Box {
  x0: number
  y0: number
  x1: number
  y1: number
}

const overlaps = (a: Box, b: Box): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1

/**
 * Labels that neither overlap each other nor the dots, nor leave the `size`×`size` map (pure). Each node tries
 * above, below, right and left of its dot; a label that fits nowhere is left out (the title still shows on hover
 * and focus). Nodes are labelled in the given priority order.
 */
export function placeLabels(nodes: readonly PlacedNode[], size: number, radius: (n: PlacedNode) => number): PlacedLabel[] {
  const taken: Box[] = nodes.map((n) => {
    const r = radius(n)
    return { x0: n.x - r, y0: n.y - r, x1: n.x + r, y1: n.y + r }
  })
  const out: PlacedLabel[] = []
  nodes.forEach((n, i) => {
    const text = shortLabel(n.title)
    const w = labelWidth(text)
    const r = radius(n)
    const candidates: PlacedLabel[] = [
      { id: n.id, text, x: n.x, y: n.y - r - 4, anchor: 'middle' },
      { id: n.id, text, x: n.x, y: n.y + r + LABEL_HEIGHT, anchor: 'middle' },
      { id: n.id, text, x: n.x + r + 4, y: n.y + 4, anchor: 'start' },
      { id: n.id, text, x: n.x - r - 4, y: n.y + 4, anchor: 'end' }
    ]
    for (const c of candidates) {
      const x0 = c.anchor === 'middle' ? c.x - w / 2 : c.anchor === 'start' ? c.x : c.x - w
      const box = { x0, y0: c.y - LABEL_HEIGHT + 3, x1: x0 + w, y1: c.y + 3 }
      if (box.x0 < 0 || box.x1 > size || box.y0 < 0 || box.y1 > size) continue
      if (taken.some((t, j) => j !== i && overlaps(t, box))) continue
      taken.push(box)
      out.push(c)
      return
    }
  })
  return out
}
