import { useState } from 'react'
import type { RateResult } from '../../shared/api'
import { useT } from '../i18n/i18n'
import { ErrorNotice } from './ErrorNotice'
import { useFocusSoon } from './focus-soon'

const STEP = 0.05

/** The rating after a key press on the slider, or null for keys it doesn't handle. */
export function stepRating(value: number, key: string): number | null {
  const steps: Record<string, number> = { ArrowRight: STEP, ArrowUp: STEP, ArrowLeft: -STEP, ArrowDown: -STEP, PageUp: 0.25, PageDown: -0.25 }
  if (key === 'Home') return 0
  if (key === 'End') return 1
  const delta = steps[key]
  if (delta === undefined) return null
  return Math.round(Math.max(0, Math.min(1, value + delta)) * 100) / 100
}

/**
 * A 0–1 rating: a native slider (arrow keys, Home/End, PageUp/PageDown) plus a submit button;
 * Enter on the slider submits. Shows the quality before → after once rated.
 */
export function RatingControl(props: { quality: number; onRate: (rating: number) => Promise<RateResult>; blocked?: string }): React.JSX.Element {
  const t = useT()
  const [rating, setRating] = useState(0.8)
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<RateResult | null>(null)
  const [error, setError] = useState<unknown>(null)
  const focusSoon = useFocusSoon()

  async function submit(): Promise<void> {
    if (busy || props.blocked) return
    setBusy(true)
    setError(null)
    try {
      setResult(await props.onRate(rating))
      focusSoon('rating-result')
    } catch (err) {
      setError(err)
      focusSoon('rating-submit')
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="rating" data-testid="rating">
      <label className="rating-label" htmlFor="rating-slider">
        {t('rating.label')}
      </label>
      <div className="rating-row">
        <input
          id="rating-slider"
          data-testid="rating-slider"
          type="range"
          min={0}
          max={1}
          step={STEP}
          value={rating}
          aria-valuetext={rating.toFixed(2)}
          onChange={(e) => setRating(Number(e.target.value))}
          onKeyDown={(e) => {
            // Handled here (not left to the browser) so every platform steps the same way.
            const next = stepRating(rating, e.key)
            if (next !== null) {
              e.preventDefault()
              setRating(next)
            } else if (e.key === 'Enter') {
              e.preventDefault()
              void submit()
            }
          }}
        />
        <output className="rating-value" htmlFor="rating-slider">
          {rating.toFixed(2)}
        </output>
        <button type="button" className="btn" data-testid="rating-submit" disabled={busy || Boolean(props.blocked)} onClick={() => void submit()}>
          {t('rating.submit')}
        </button>
      </div>
      <div className="rating-quality" data-testid="rating-result" aria-live="polite" tabIndex={-1}>
        {result
          ? t('rating.result', { before: result.before.toFixed(3), after: result.after.toFixed(3) })
          : t('rating.current', { quality: props.quality.toFixed(3) })}
      </div>
      {props.blocked && <p className="form-hint" data-testid="rating-blocked">{props.blocked}</p>}
      {error !== null && <ErrorNotice error={error} action="failed.rate" />}
    </div>
  )
}
