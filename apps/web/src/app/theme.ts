import { useEffect, useMemo } from 'react';
import { theme as antdTheme, type ThemeConfig } from 'antd';
import type { ThemeMode } from '../kit/prefs';
import { useReducedMotion } from '../kit/a11y';

/**
 * The console's antd theme (spec §9: the site's primary colour, light and dark), made to meet WCAG 2.1 AA:
 * text 4.5:1 on its background, focus rings and other state indicators 3:1.
 *
 * The brand colour #f5ca47 is light: white text on it is 1.6:1, and it is 1.6:1 as text on white. So it is
 * used where it contrasts: as a fill behind dark text (primary buttons, the selected menu entry, checked
 * boxes), as an ink bar, and as text in the dark theme; in the light theme text that "is" the brand (links,
 * the selected tab) takes a darker shade of it. antd's pale greys (placeholders 1.8:1, descriptions 3.4:1)
 * and its preset tag colours (gold, lime, green, cyan… 2.5–3.4:1 on their tint) are made darker.
 */

const INK = 'rgba(0, 0, 0, 0.88)';
/** antd's tag colours (`<Tag color="gold">`), each drawn as palette step 7 on step 1. */
const PRESETS = ['blue', 'purple', 'cyan', 'green', 'magenta', 'pink', 'red', 'orange', 'yellow', 'volcano', 'geekblue', 'gold', 'lime'] as const;
/** WCAG 2.1 AA: normal text 4.5:1 (1.4.3), user-interface components and focus indicators 3:1 (1.4.11). */
const TEXT = 4.5;
const UI = 3;

type Rgba = [number, number, number, number];

function parse(css: string): Rgba {
  const m = css.match(/rgba?\(([^)]+)\)/);
  if (m) {
    const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  }
  const h = css.replace('#', '');
  const full = h.length === 3 ? h.split('').map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)).concat(full.length === 8 ? parseInt(full.slice(6, 8), 16) / 255 : 1) as Rgba;
}

/** `fg` drawn over the opaque `bg` (alpha composited). */
function over(fg: string, bg: string): Rgba {
  const [r, g, b, a] = parse(fg);
  const [br, bgg, bb] = parse(bg);
  return [r * a + br * (1 - a), g * a + bgg * (1 - a), b * a + bb * (1 - a), 1];
}

function luminanceOf([r, g, b]: Rgba): number {
  const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of `fg` (may be translucent) over the opaque `bg`, 1 to 21. */
export function contrast(fg: string, bg: string): number {
  const [a, b] = [luminanceOf(over(fg, bg)), luminanceOf(parse(bg))];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** Whether text on this colour should be dark (a light primary such as #f5ca47 needs dark text). */
function needsDarkText(hex: string): boolean {
  return luminanceOf(parse(hex)) > 0.45;
}

function toHex([r, g, b]: Rgba): string {
  return '#' + [r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('');
}

/** The colour with this opacity, as rgba(). */
function withAlpha(color: string, alpha: number): string {
  const [r, g, b] = parse(color);
  return `rgba(${r}, ${g}, ${b}, ${alpha})`;
}

/** White or near-black text, whichever reads better on the opaque `fill`. */
function textOn(fill: string): string {
  return contrast('#fff', fill) >= contrast(INK, fill) ? '#fff' : INK;
}

/** The first colour of `candidates` that reaches `ratio` on every background (else the last one). */
function firstReadable(candidates: string[], backgrounds: string[], ratio: number): string {
  return candidates.find((c) => backgrounds.every((bg) => contrast(c, bg) >= ratio)) ?? candidates[candidates.length - 1];
}

/**
 * Shades of `color`, from the colour itself on: darker ones then lighter ones in the light theme, lighter
 * then darker in the dark theme (a colour too close to the page's own goes the other way).
 */
function shades(color: string, dark: boolean): string[] {
  const rgb = parse(color);
  const steps = Array.from({ length: 25 }, (_, i) => 1 - i * 0.04);
  const darker = steps.map((f) => toHex(rgb.map((c) => c * f) as Rgba));
  const lighter = steps.map((f) => toHex(rgb.map((c) => 255 - (255 - c) * f) as Rgba));
  return dark ? [...lighter, ...darker] : [...darker, ...lighter];
}

/** The shade of `color` nearest to it that reaches `ratio` on every background. */
function readableShade(color: string, backgrounds: string[], ratio: number, dark: boolean): string {
  return firstReadable(shades(color, dark), backgrounds, ratio);
}

export interface ConsoleTheme {
  config: ThemeConfig;
  /** Colour of the keyboard focus ring (global.css `--dau-focus-ring`). */
  focusRing: string;
}

export function consoleTheme(primary: string, mode: ThemeMode): ConsoleTheme {
  const dark = mode === 'dark';
  const algorithm = dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm;
  // Greys as alpha of the text colour, as antd's are: tertiary/description text (captions, breadcrumbs,
  // secondary Typography) and placeholders raised to 4.5:1 on the page, the card and the table header.
  const greys = dark
    ? { colorTextTertiary: 'rgba(255, 255, 255, 0.58)', colorTextDescription: 'rgba(255, 255, 255, 0.58)', colorTextPlaceholder: 'rgba(255, 255, 255, 0.52)' }
    : { colorTextTertiary: 'rgba(0, 0, 0, 0.62)', colorTextDescription: 'rgba(0, 0, 0, 0.62)', colorTextPlaceholder: 'rgba(0, 0, 0, 0.56)' };
  const base = antdTheme.getDesignToken({ algorithm, token: { colorPrimary: primary, ...greys } });
  const page = base.colorBgContainer;
  const surfaces = [page, base.colorBgLayout, base.colorBgElevated];

  // Text in the brand colour: links, the selected tab, the active page number (the colour itself where it
  // contrasts, as on the dark theme's near-black, else a shade of it).
  const brandText = readableShade(primary, surfaces, TEXT, dark);
  // colorLink is a seed: the dark algorithm dims it (its palette step 6 is 85% of the seed over #141414, as
  // @ant-design/colors mixes it), so the seed is the first shade whose dimmed colour still reads.
  const dimmed = (seed: string) => (dark ? toHex(over(withAlpha(seed, 0.85), '#141414')) : seed);
  const linkSeed = shades(primary, dark).find((seed) => surfaces.every((bg) => contrast(dimmed(seed), bg) >= TEXT)) ?? brandText;
  const brandHover = dark ? brandText : readableShade(primary, surfaces, TEXT + 1.5, false);
  // The focus ring: the brand colour where it shows on the page, else the darker shade.
  const focusRing = readableShade(primary, surfaces, UI, dark);
  // Status colours used as text (figures, "Bound", danger buttons, error messages) on the page and on their tint.
  const status = (color: string, tint: string) => readableShade(color, [...surfaces, tint], TEXT, dark);
  const colorSuccessText = status(base.colorSuccess, base.colorSuccessBg);
  const colorErrorText = status(base.colorError, base.colorErrorBg);
  const colorWarningText = status(base.colorWarning, base.colorWarningBg);
  const colorInfoText = status(base.colorInfo, base.colorInfoBg);
  // Tags: text in the first palette step from 7 on that reads on the tag's tint (step 1) and on the page.
  const tags = Object.fromEntries(
    PRESETS.map((c) => {
      const palette = [7, 8, 9, 10].map((i) => (base as unknown as Record<string, string>)[`${c}${i}`]);
      const tint = (base as unknown as Record<string, string>)[`${c}1`];
      return [`${c}7`, firstReadable(palette, [tint, page], TEXT)];
    }),
  );
  // Danger buttons draw their text in colorError; a solid one draws white (or dark) text on it.
  const danger = readableShade(base.colorError, surfaces, TEXT, dark);
  const dangerColor = textOn(danger);

  // Text, ticks and dots on the primary fill: dark on a light primary such as the gold, else white.
  const onPrimary = textOn(base.colorPrimary);
  // The selected menu entry: in the light theme a light primary is a fill behind dark text (its own pale
  // tint would barely show); otherwise the entry's text is the brand colour, readable on the tint.
  const lightFill = !dark && needsDarkText(primary);
  const selectedBg = lightFill ? toHex(over(withAlpha(primary, 0.55), page)) : base.colorPrimaryBg;
  const selectedText = lightFill ? INK : readableShade(primary, [selectedBg], TEXT, dark);
  const config: ThemeConfig = {
    algorithm,
    token: {
      colorPrimary: primary,
      borderRadius: 6,
      ...greys,
      colorLink: linkSeed,
      colorLinkHover: brandHover,
      colorLinkActive: brandHover,
      colorSuccessText,
      colorErrorText,
      colorWarningText,
      colorInfoText,
      // Inputs and selects show focus as a border and a ring: both must show on the page.
      controlOutline: withAlpha(focusRing, dark ? 0.5 : 0.4),
      controlOutlineWidth: 2,
    },
    components: {
      // Primary buttons: the gold fill with dark text; default buttons hover in the readable brand shade.
      Button: {
        primaryColor: onPrimary,
        colorError: danger,
        dangerColor,
        defaultHoverColor: brandText,
        defaultActiveColor: brandHover,
        defaultHoverBorderColor: brandText,
        defaultActiveBorderColor: brandHover,
      },
      Menu: {
        subMenuItemBg: 'transparent',
        itemSelectedBg: selectedBg,
        itemSelectedColor: selectedText,
        subMenuItemSelectedColor: selectedText,
        horizontalItemSelectedColor: selectedText,
        ...(lightFill ? { horizontalItemSelectedBg: 'transparent' } : {}),
      },
      // The active tab: readable text and a brand-coloured ink bar.
      Tabs: { itemSelectedColor: brandText, itemActiveColor: brandHover, itemHoverColor: brandText, inkBarColor: primary },
      Pagination: { itemActiveColor: brandText, itemActiveColorHover: brandHover },
      Tag: tags,
      // Ticks and dots on the primary fill, as primary button text.
      Checkbox: { colorWhite: onPrimary },
      Radio: { colorWhite: onPrimary, buttonSolidCheckedColor: onPrimary },
      Input: { activeBorderColor: focusRing },
      InputNumber: { activeBorderColor: focusRing },
      Select: { activeBorderColor: focusRing },
      DatePicker: { activeBorderColor: focusRing },
    },
  };
  return { config, focusRing };
}

/**
 * The console's antd theme; with "reduce motion" asked by the system, antd's fades, slides and zooms are
 * off (drawers, dialogs, menus and toasts appear at once).
 */
export function useConsoleTheme(primary: string, mode: ThemeMode): ThemeConfig {
  const { config, focusRing } = useMemo(() => consoleTheme(primary, mode), [primary, mode]);
  const reduced = useReducedMotion();
  useEffect(() => {
    document.documentElement.style.setProperty('--dau-focus-ring', focusRing);
  }, [focusRing]);
  return useMemo(() => (reduced ? { ...config, token: { ...config.token, motion: false } } : config), [config, reduced]);
}
