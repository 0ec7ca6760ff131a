import { Grid } from 'antd';

/**
 * Dialog width (spec §9): 90% of the window on desktop, 96% on mobile (below antd's `md`, 768 px).
 *
 *   <Modal width={DIALOG_WIDTH} …>                 responsive, no hook needed
 *   const width = useDialogWidth();               '90%' | '96%'
 *   const width = useDialogWidth(640);            a form: 90%/96% but never wider than 640 px
 */
export const DIALOG_WIDTH = { xs: '96%', sm: '96%', md: '90%', lg: '90%', xl: '90%', xxl: '90%' } as const;

export const MOBILE_QUERY = '(max-width: 767.98px)';

export function useIsMobile(): boolean {
  const screens = Grid.useBreakpoint();
  // Before the first measurement every breakpoint is undefined: decide from the media query.
  if (screens.md === undefined) return typeof window !== 'undefined' && window.matchMedia(MOBILE_QUERY).matches;
  return !screens.md;
}

export function useDialogWidth(maxPx?: number): string {
  const pct = useIsMobile() ? '96%' : '90%';
  return maxPx ? `min(${pct}, ${maxPx}px)` : pct;
}

/** Outside React (e.g. `modal.confirm` from a handler). */
export function dialogWidth(maxPx?: number): string {
  const pct = typeof window !== 'undefined' && window.matchMedia(MOBILE_QUERY).matches ? '96%' : '90%';
  return maxPx ? `min(${pct}, ${maxPx}px)` : pct;
}
