import { Component } from 'react'
import type { ErrorInfo, ReactNode } from 'react'

interface Props {
  /** Rendered instead of the children after a crash; `reset` tries again. */
  fallback: (error: Error, reset: () => void) => ReactNode
  children: ReactNode
  /** Changing this key clears the error (e.g. when the user navigates). */
  resetKey?: string
}

/** Catches render errors of one screen so the rest of the window keeps working. */
export class ErrorBoundary extends Component<Props, { error: Error | null }> {
  override state: { error: Error | null } = { error: null }

  static getDerivedStateFromError(error: Error): { error: Error } {
    return { error }
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Screen crashed:', error, info.componentStack)
  }

  override componentDidUpdate(prev: Props): void {
    if (prev.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null })
  }

  override render(): ReactNode {
    if (this.state.error) return this.props.fallback(this.state.error, () => this.setState({ error: null }))
    return this.props.children
  }
}
