import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SiteInfo } from '@dau/contract';
import { PRIMARY_COLOR } from '@dau/domain';
import { api } from './api';

/**
 * Website info (spec §3, §7): title, icon and primary colour, applied to the document title, the favicon
 * and the theme. Until it arrives (or when it cannot be fetched) the console uses its defaults.
 */
export type Site = Omit<SiteInfo, 'id'>;

export const SITE_QUERY_KEY = ['site'] as const;

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function useSite(fallbackTitle: string): Site {
  const { data } = useQuery({
    queryKey: SITE_QUERY_KEY,
    queryFn: () => api.get<SiteInfo>('/site'),
    staleTime: 5 * 60_000,
    retry: 1,
  });
  const site: Site = {
    title: data?.title?.trim() || fallbackTitle,
    icon: data?.icon || '',
    logo: data?.logo || data?.icon || '',
    color: data?.color && HEX.test(data.color) ? data.color : PRIMARY_COLOR,
  };

  useEffect(() => {
    document.title = site.title;
  }, [site.title]);

  useEffect(() => {
    if (!site.icon) return;
    let link = document.querySelector<HTMLLinkElement>('link#site-icon');
    if (!link) {
      link = document.createElement('link');
      link.id = 'site-icon';
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    link.href = site.icon;
  }, [site.icon]);

  return site;
}
