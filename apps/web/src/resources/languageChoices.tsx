import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../kit/api';
import type { FieldView, Option } from './types';

/**
 * The languages of the language list as choices ("Kiswahili (sw-KE)"), every one, shown or not (an
 * article or a shop category may be prepared before its language is offered); undefined while loading.
 */
export function useLanguageChoices(): Option[] | undefined {
  const q = useQuery({
    queryKey: ['language_list', 'choices'],
    queryFn: () => api.get<{ items: { code: string; title: string }[] }>('/languages'),
    staleTime: 60_000,
    retry: false,
  });
  return useMemo<Option[] | undefined>(() => q.data?.items.map((l) => ({ value: l.code, label: `${l.title} (${l.code})` })), [q.data]);
}

/** A language field picked in the language list, and shown by its name (nothing changes while the list loads). */
export const languageField = (languages: Option[] | undefined): Partial<FieldView> =>
  languages ? { options: languages, render: (v) => <>{languages.find((o) => o.value === v)?.label ?? String(v ?? '-')}</> } : {};
