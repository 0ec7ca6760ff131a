import type { ComponentType } from 'react';
import {
  bettingTypeResource,
  eventPartResource,
  eventTemplateResource,
  gameplayClassificationResource,
  leagueResource,
  locationResource,
  optionTranslationResource,
  outcomeSortingTypeResource,
  popularResource,
} from '@dau/contract/ui';
import { ResourcePage } from '../../resources';

/** The sports catalogue screens that are one declaration each (packages/contract/src/sports-resources.ts). */
export const screens: Record<string, ComponentType> = {
  location: () => <ResourcePage def={locationResource} />,
  league_list: () => <ResourcePage def={leagueResource} />,
  event_template: () => <ResourcePage def={eventTemplateResource} />,
  betting_type: () => <ResourcePage def={bettingTypeResource} />,
  event_part: () => <ResourcePage def={eventPartResource} />,
  popular: () => <ResourcePage def={popularResource} />,
  outcome_sorting_type: () => <ResourcePage def={outcomeSortingTypeResource} />,
  gameplay_classification: () => <ResourcePage def={gameplayClassificationResource} />,
  option_translation: () => <ResourcePage def={optionTranslationResource} />,
};
