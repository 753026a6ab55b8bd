/**
 * The Library map's drawn geometry, as the browser draws it (getBoundingClientRect): the box of every dot (its circle
 * with its outline, or its protected ring), every name or title drawn beside the dots, and the map's visible box (the
 * map's own box cut by every ancestor that clips, and by the window). `mapProblems` says what is wrong, one line each:
 * a dot or a label not wholly inside the visible box, a label over a dot, two labels over each other.
 */
import type { Locator, Page } from 'playwright-core'

export interface Rect {
  x0: number
  y0: number
  x1: number
  y1: number
}

export interface MapGeometry {
  visible: Rect
  dots: (Rect & { id: string })[]
  labels: (Rect & { text: string })[]
}

/** Measures the map (`cluster-map`) as it is drawn now, the pointer moved off it and the keyboard elsewhere. */
export async function measureMap(page: Page, map: Locator): Promise<MapGeometry> {
  await page.mouse.move(0, 0)
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await map.evaluate((el) => el.scrollIntoView({ block: 'center' }))
  return map.evaluate((svg) => {
    const box = (r: DOMRect): { x0: number; y0: number; x1: number; y1: number } => ({ x0: r.left, y0: r.top, x1: r.right, y1: r.bottom })
    // the map's box, cut by the ancestors that clip what overflows them, and by the window
    let visible = box(svg.getBoundingClientRect())
    const cut = (r: { x0: number; y0: number; x1: number; y1: number }): void => {
      visible = { x0: Math.max(visible.x0, r.x0), y0: Math.max(visible.y0, r.y0), x1: Math.min(visible.x1, r.x1), y1: Math.min(visible.y1, r.y1) }
    }
    for (let el = svg.parentElement; el; el = el.parentElement) {
      const style = getComputedStyle(el)
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
        const r = el.getBoundingClientRect()
        cut({ x0: r.left + el.clientLeft, y0: r.top + el.clientTop, x1: r.left + el.clientLeft + el.clientWidth, y1: r.top + el.clientTop + el.clientHeight })
      }
    }
    cut({ x0: 0, y0: 0, x1: window.innerWidth, y1: window.innerHeight })
    // user units to screen pixels (the viewBox is scaled to fit the box, the same factor both ways)
    const ctm = (svg as SVGSVGElement).getScreenCTM()
    const scale = ctm ? Math.hypot(ctm.a, ctm.b) : 1
    const dots = [...svg.querySelectorAll('g.node')].map((g) => {
      // the widest circle of the node (its protected ring, else the dot), with half its outline
      const r = [...g.querySelectorAll('circle')]
        .map((c) => {
          const b = box(c.getBoundingClientRect())
          const half = (parseFloat(getComputedStyle(c).strokeWidth) || 0) * scale * 0.5
          return { x0: b.x0 - half, y0: b.y0 - half, x1: b.x1 + half, y1: b.y1 + half }
        })
        .reduce((a, b) => ({ x0: Math.min(a.x0, b.x0), y0: Math.min(a.y0, b.y0), x1: Math.max(a.x1, b.x1), y1: Math.max(a.y1, b.y1) }))
      return { id: g.id, ...r }
    })
    const labels = [...svg.querySelectorAll('text.node-label')].map((t) => ({ text: t.textContent ?? '', ...box(t.getBoundingClientRect()) }))
    return { visible, dots, labels }
  })
}

const overlap = (a: Rect, b: Rect): boolean => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
// half a pixel of rounding, no more
const inside = (a: Rect, box: Rect): boolean => a.x0 >= box.x0 - 0.5 && a.y0 >= box.y0 - 0.5 && a.x1 <= box.x1 + 0.5 && a.y1 <= box.y1 + 0.5
const where = (r: Rect): string => `[${r.x0.toFixed(1)}, ${r.y0.toFixed(1)} – ${r.x1.toFixed(1)}, ${r.y1.toFixed(1)}]`

/** Every way the drawn map goes wrong: a dot or label not wholly visible, a label over a dot or over another label. */
export function mapProblems(g: MapGeometry): string[] {
  const out: string[] = []
  for (const d of g.dots) if (!inside(d, g.visible)) out.push(`dot ${d.id} ${where(d)} not inside the map's visible box ${where(g.visible)}`)
  for (const l of g.labels) if (!inside(l, g.visible)) out.push(`label '${l.text}' ${where(l)} not inside the map's visible box ${where(g.visible)}`)
  for (const l of g.labels) for (const d of g.dots) if (overlap(l, d)) out.push(`label '${l.text}' ${where(l)} covers dot ${d.id} ${where(d)}`)
  g.labels.forEach((a, i) => {
    for (const b of g.labels.slice(i + 1)) if (overlap(a, b)) out.push(`labels '${a.text}' and '${b.text}' overlap`)
  })
  return out
}
