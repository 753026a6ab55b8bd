/**
 * How wide the map draws a text (browser only): measured on a canvas in the page's font at `px`, so the labels are
 * placed by the widths the browser will draw (a label's box guessed too narrow covered the dots beside it). Where no
 * canvas measures (jsdom), labelWidth's estimate at that size. Widths are kept per text.
 */
import { labelWidth, type Measure } from './cluster-layout'

export function textMeasure(px: number): Measure {
  const ctx = canvasContext()
  if (!ctx) return (text) => (labelWidth(text) * px) / 12
  ctx.font = `${px}px ${getComputedStyle(document.documentElement).fontFamily || 'sans-serif'}`
  const widths = new Map<string, number>()
  return (text) => {
    let w = widths.get(text)
    if (w === undefined) {
      // a little room for the label's halo and a fallback font's rounding
      w = Math.ceil(ctx.measureText(text).width * 1.04) + 4
      widths.set(text, w)
    }
    return w
  }
}

function canvasContext(): OffscreenCanvasRenderingContext2D | null {
  if (typeof OffscreenCanvas === 'undefined') return null
  try {
    return new OffscreenCanvas(1, 1).getContext('2d')
  } catch {
    return null
  }
}
