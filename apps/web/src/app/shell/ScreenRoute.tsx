import { Component, lazy, Suspense, useState, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { useAccess } from '../../kit/access';
import { isChunkLoadError, logError } from '../errors';
import { ContentLoading } from '../Loading';
import { SCREENS, hasScreen } from '../screens';
import { ForbiddenResult, NotFoundResult, ResourceErrorResult } from './results';

/**
 * `/customer/:page`: the screen registered for the page, loaded lazily, when the admin may see it;
 * 404 when the console has no such screen, 403 when the role does not grant it.
 */
const cache = new Map<string, LazyExoticComponent<ComponentType>>();

function lazyScreen(page: string) {
  let c = cache.get(page);
  if (!c) {
    c = lazy(SCREENS[page]);
    cache.set(page, c);
  }
  return c;
}

interface BoundaryProps {
  onRetry(error: unknown): void;
  children: ReactNode;
}

class ScreenBoundary extends Component<BoundaryProps, { error: unknown }> {
  state = { error: null as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  componentDidCatch(error: unknown) {
    logError(isChunkLoadError(error) ? 'preload' : 'error', error);
  }

  render() {
    if (this.state.error) return <ResourceErrorResult onRetry={() => this.props.onRetry(this.state.error)} />;
    return this.props.children;
  }
}

export function ScreenRoute() {
  const { page = '' } = useParams();
  const { can } = useAccess();
  const [attempt, setAttempt] = useState(0);

  if (!hasScreen(page)) return <NotFoundResult />;
  if (!can(page)) return <ForbiddenResult />;

  const Screen = lazyScreen(page);
  const retry = (error: unknown) => {
    // The browser remembers a failed module fetch: only a reload fetches a chunk again.
    if (isChunkLoadError(error)) {
      window.location.reload();
      return;
    }
    cache.delete(page);
    setAttempt((a) => a + 1);
  };
  return (
    <ScreenBoundary key={`${page}:${attempt}`} onRetry={retry}>
      <Suspense fallback={<ContentLoading />}>
        <Screen />
      </Suspense>
    </ScreenBoundary>
  );
}
