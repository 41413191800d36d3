import { Component, type ReactNode } from 'react';
import { LazyRouteErrorPage } from './LazyRouteErrorPage';

interface RouteErrorBoundaryProps {
  /** The shown location's key: a new page starts without the last one's error. */
  resetKey: string;
  children: ReactNode;
}

interface RouteErrorBoundaryState {
  resetKey: string;
  error: { value: unknown } | null;
}

/** Whatever a page throws while rendering ends on the error page, until the next navigation. */
export class RouteErrorBoundary extends Component<RouteErrorBoundaryProps, RouteErrorBoundaryState> {
  state: RouteErrorBoundaryState = { resetKey: this.props.resetKey, error: null };

  static getDerivedStateFromError(error: unknown): Partial<RouteErrorBoundaryState> {
    return { error: { value: error } };
  }

  static getDerivedStateFromProps(props: RouteErrorBoundaryProps, state: RouteErrorBoundaryState): Partial<RouteErrorBoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { resetKey: props.resetKey, error: null };
  }

  render() {
    return this.state.error ? <LazyRouteErrorPage error={this.state.error.value} /> : this.props.children;
  }
}
