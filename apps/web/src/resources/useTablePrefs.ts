import { useCallback, useState } from 'react';

export type Density = 'large' | 'medium' | 'small';

export interface TablePrefs {
  /** Keys of the columns the operator has hidden; null until they choose (the table then fits the screen). */
  hidden: string[] | null;
  density: Density;
}

const DEFAULT_PREFS: TablePrefs = { hidden: null, density: 'medium' };
const storageKey = (screen: string) => `dau.table.${screen}`;

function read(screen: string): TablePrefs {
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey(screen)) ?? 'null') as Partial<TablePrefs> | null;
    return {
      hidden: Array.isArray(saved?.hidden) ? saved.hidden.filter((k) => typeof k === 'string') : null,
      density: saved?.density === 'large' || saved?.density === 'small' ? saved.density : 'medium',
    };
  } catch {
    return DEFAULT_PREFS;
  }
}

/** Column visibility and density of one screen's table, kept in localStorage. */
export function useTablePrefs(screen: string) {
  const [prefs, setPrefs] = useState<TablePrefs>(() => read(screen));
  const save = useCallback(
    (change: Partial<TablePrefs>) =>
      setPrefs((prev) => {
        const next = { ...prev, ...change };
        try {
          localStorage.setItem(storageKey(screen), JSON.stringify(next));
        } catch {
          /* storage full or blocked: the choice lasts for this visit */
        }
        return next;
      }),
    [screen],
  );
  return {
    ...prefs,
    setHidden: (hidden: string[]) => save({ hidden }),
    setDensity: (density: Density) => save({ density }),
    /** Back to the columns that fit the screen, and the default density. */
    reset: () => save(DEFAULT_PREFS),
  };
}
