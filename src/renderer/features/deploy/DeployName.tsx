import { shownName } from './deploy-view'

/** A deployed skill's name: cut at a word with '…' when long, the full name in the tooltip and for screen readers. */
export function DeployName(props: { name: string; className?: string }): React.JSX.Element {
  const shown = shownName(props.name)
  if (shown === props.name) return <span className={`deploy-name-text ${props.className ?? ''}`}>{props.name}</span>
  return (
    <span className={`deploy-name-text ${props.className ?? ''}`} title={props.name} data-full-name={props.name}>
      <span aria-hidden="true">{shown}</span>
      <span className="sr-only">{props.name}</span>
    </span>
  )
}
