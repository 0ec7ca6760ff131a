import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SiteInfo } from '@dau/contract';
import { PRIMARY_COLOR } from '@dau/domain';
import { api } from './api';

/**
 * Website info (spec §3, §7): title, icon and primary colour, applied to the document title, the favicon
 * and the theme. Until it arrives (or when it cannot be fetched) the console uses its defaults.
 */
export interface Site {
  title: string;
  icon: string;
  logo: string;
  color: string;
}

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

/** Whether text on this colour should be dark (a light primary such as #f5ca47 needs dark text). */
export function needsDarkText(hex: string): boolean {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? h.split('').map((c) => c + c).join('') : h;
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16) / 255);
  const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const luminance = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return luminance > 0.45;
}

/** The colour scaled towards black (factor 1 = unchanged, 0 = black), as #rrggbb. */
export function shade(hex: string, factor: number): string {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? h.split('').map((c) => c + c).join('') : h;
  return (
    '#' +
    [0, 2, 4]
      .map((i) => Math.round(parseInt(full.slice(i, i + 2), 16) * factor).toString(16).padStart(2, '0'))
      .join('')
  );
}
