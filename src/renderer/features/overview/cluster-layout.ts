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

/** Places every node inside a `size`×`size` square. */
export function layoutClusters(nodes: readonly GraphNode[], size: number): { nodes: PlacedNode[]; clusters: ClusterLabel[] } {
  const centre = size / 2
  const groups = new Map<number, GraphNode[]>()
  const noise: GraphNode[] = []
  for (const node of [...nodes].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    if (node.cluster < 0) noise.push(node)
    else groups.set(node.cluster, [...(groups.get(node.cluster) ?? []), node])
  }
  const ordered = [...groups.entries()].sort((a, b) => b[1].length - a[1].length || a[0] - b[0])
  const placed: PlacedNode[] = []
  const labels: ClusterLabel[] = []
  const ringRadius = ordered.length <= 1 ? 0 : size * 0.27
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
