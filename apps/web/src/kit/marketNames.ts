import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Market and selection names in the operator's language. The server names markets and selections in
 * English (the feed's names, or the betting-type catalogue's); the provider's market type ids and outcome
 * ids it sends with them say what they are, so the console names the ones it knows in every language
 * (`market.type.<id>`, `market.outcome.*`) and shows the server's name for the rest. In en-US the server's
 * (catalogue) name stands.
 */
export const KNOWN_MARKET_TYPES = [1, 16, 18, 219, 223, 225] as const;

const spec = (specifiers: string, key: string) => specifiers.split('|').find((s) => s.startsWith(`${key}=`))?.slice(key.length + 1);

/** The provider's market type id of a market key (`18|total=2.5` → 18). */
export const typeOfMarketKey = (key: string) => Number(key.split('|')[0]);

export function useMarketNames() {
  const { t, i18n } = useTranslation();
  const english = i18n.language === 'en-US';
  const market = useCallback(
    (typeId: number | null | undefined, fallback: string) =>
      !english && typeId !== null && typeId !== undefined && (KNOWN_MARKET_TYPES as readonly number[]).includes(typeId)
        ? t(`market.type.${typeId as (typeof KNOWN_MARKET_TYPES)[number]}`)
        : fallback,
    [english, t],
  );
  const selection = useCallback(
    (outcomeId: string | null | undefined, fallback: string, specifiers = '') => {
      if (english) return fallback;
      const total = spec(specifiers, 'total');
      switch (outcomeId) {
        case '2':
          return t('market.outcome.draw');
        case '12':
          return total ? t('market.outcome.over', { total }) : t('market.outcome.overPlain');
        case '13':
          return total ? t('market.outcome.under', { total }) : t('market.outcome.underPlain');
        default:
          return fallback;
      }
    },
    [english, t],
  );
  return { market, selection };
}
