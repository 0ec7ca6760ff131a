import type { ComponentType } from 'react';
import {
  configurationResource,
  ipBlackResource,
  languageResource,
  logConfigResource,
  logResource,
  logTypeResource,
  subscriberConfigResource,
} from '@dau/contract/ui';
import { ResourcePage } from '../../resources';

/** The system screens that are one declaration each (packages/contract/src/resources.ts). */
export const screens: Record<string, ComponentType> = {
  ip_black: () => <ResourcePage def={ipBlackResource} />,
  language_list: () => <ResourcePage def={languageResource} />,
  log_type: () => <ResourcePage def={logTypeResource} />,
  log_config: () => <ResourcePage def={logConfigResource} />,
  configuration: () => <ResourcePage def={configurationResource} />,
  subscriber_config_default: () => <ResourcePage def={subscriberConfigResource} />,
  log: () => <ResourcePage def={logResource} />,
};
