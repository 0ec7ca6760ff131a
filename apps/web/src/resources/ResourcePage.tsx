import { SITE_QUERY_KEY } from '../kit/site';
import { ResourceList, type ResourceListProps } from './ResourceList';
import { SettingsCard } from './SettingsCard';

/** The whole screen of a declaration: a list screen, or a settings card for a singleton. */
export function ResourcePage({ def, ...rest }: ResourceListProps) {
  // Settings may change what the shell shows (site title, icon, colour): refresh it too.
  if (def.kind === 'singleton') return <SettingsCard def={def} invalidate={[SITE_QUERY_KEY]} />;
  return <ResourceList def={def} {...rest} />;
}
