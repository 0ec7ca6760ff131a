import type { Locale } from '@dau/domain';

/**
 * One catalogue per language, fetched when that language is shown (the product's messages, the
 * enumerations' labels): `load` fetches a language once (a failed fetch may be tried again); `loaded`
 * holds what has arrived, read synchronously.
 */
export function perLanguage<T>(loaders: Record<Locale, () => Promise<{ default: T }>>) {
  const loaded: Partial<Record<Locale, T>> = {};
  const loading = new Map<Locale, Promise<void>>();
  const load = (lng: Locale): Promise<void> => {
    let done = loading.get(lng);
    if (!done) {
      done = loaders[lng]().then((m) => {
        loaded[lng] = m.default;
      });
      done.catch(() => loading.delete(lng));
      loading.set(lng, done);
    }
    return done;
  };
  return { loaded, load };
}
