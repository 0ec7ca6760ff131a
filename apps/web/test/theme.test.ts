import { describe, expect, it } from 'vitest';
import { theme } from 'antd';
import { PRIMARY_COLOR } from '@dau/domain';
import { consoleTheme, contrast } from '../src/app/theme';

/**
 * The console theme meets WCAG 2.1 AA contrast in both modes, for the product's gold and for other site
 * colours an operator may set (spec §7): text 4.5:1, the focus ring 3:1. (The browser test,
 * e2e/accessibility.test.ts, checks the drawn screens with axe-core.)
 */
const COLOURS = [PRIMARY_COLOR, '#1677ff', '#00b96b', '#722ed1', '#fa541c', '#ffffff', '#1f1f1f'];
const PRESETS = ['blue', 'purple', 'cyan', 'green', 'magenta', 'pink', 'red', 'orange', 'yellow', 'volcano', 'geekblue', 'gold', 'lime'];

describe.each(['light', 'dark'] as const)('console theme, %s', (mode) => {
  it.each(COLOURS)('site colour %s: text, tags, buttons and focus reach AA', (primary) => {
    const { config, focusRing } = consoleTheme(primary, mode);
    const t = theme.getDesignToken(config) as unknown as Record<string, string>;
    const c = config.components as Record<string, Record<string, string>>;
    const surfaces = [t.colorBgContainer, t.colorBgLayout, t.colorBgElevated];
    const text = (what: string, fg: string, bgs: string[], min = 4.5) => {
      for (const bg of bgs) expect(contrast(fg, bg), `${what} ${fg} on ${bg}`).toBeGreaterThanOrEqual(min);
    };

    for (const k of ['colorText', 'colorTextSecondary', 'colorTextTertiary', 'colorTextDescription', 'colorTextPlaceholder', 'colorLink']) text(k, t[k], surfaces);
    text('table header text', t.colorTextDescription, [t.colorFillAlter].map((f) => mix(f, t.colorBgContainer)));
    text('success text', t.colorSuccessText, [...surfaces, t.colorSuccessBg]);
    text('error text', t.colorErrorText, [...surfaces, t.colorErrorBg]);
    text('warning text', t.colorWarningText, [...surfaces, t.colorWarningBg]);
    for (const p of PRESETS) text(`${p} tag`, c.Tag[`${p}7`], [t[`${p}1`]]);
    text('primary button text', c.Button.primaryColor, [t.colorPrimary]);
    text('danger text button', c.Button.colorError, surfaces);
    text('danger button text', c.Button.dangerColor, [c.Button.colorError]);
    text('selected tab', c.Tabs.itemSelectedColor, surfaces);
    text('active page number', c.Pagination.itemActiveColor, surfaces);
    text('selected menu entry', c.Menu.itemSelectedColor, [c.Menu.itemSelectedBg]);
    text('focus ring', focusRing, surfaces, 3);
  });
});

it('the brand colour stays the primary colour (spec §9)', () => {
  for (const mode of ['light', 'dark'] as const) expect(consoleTheme(PRIMARY_COLOR, mode).config.token?.colorPrimary).toBe(PRIMARY_COLOR);
});

/** A translucent fill over an opaque background, as rgb(). */
function mix(fill: string, bg: string): string {
  const m = fill.match(/rgba?\(([^)]+)\)/);
  if (!m) return fill;
  const [r, g, b, a = 1] = m[1].split(/[\s,/]+/).map(Number);
  const hex = bg.replace('#', '');
  const [br, bgg, bb] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  return `rgb(${r * a + br * (1 - a)}, ${g * a + bgg * (1 - a)}, ${b * a + bb * (1 - a)})`;
}
