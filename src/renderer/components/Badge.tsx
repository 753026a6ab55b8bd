import type { ReactNode } from 'react'

/** A small coloured status label; `tone` picks the colour. */
export function Badge(props: { tone: 'ok' | 'warn' | 'bad' | 'info' | 'muted' | 'accent'; children: ReactNode; testId?: string }): React.JSX.Element {
  return (
    <span className={`badge badge-${props.tone}`} data-testid={props.testId}>
      {props.children}
    </span>
  )
}
