/** An accessible determinate progress bar (0..1). */
export function ProgressBar(props: { value: number; label: string; testId?: string }): React.JSX.Element {
  const percent = Math.round(Math.max(0, Math.min(1, props.value)) * 100)
  return (
    <div className="progress" role="progressbar" aria-label={props.label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} data-testid={props.testId}>
      <div className="progress-track">
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <span className="progress-text">{percent} %</span>
    </div>
  )
}
