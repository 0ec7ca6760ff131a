import { useEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { usePrefs } from '../../kit/prefs';
import { useReducedMotion } from '../../kit/a11y';
import { Panel } from '../../resources';

/**
 * How near the viewport a chart starts loading ECharts: a screen's height ahead is more than the time the
 * chunk takes on a slow line, less than the whole of a long page.
 */
const NEAR = '400px 0px';

/** Read by screen readers only. */
const HIDDEN: CSSProperties = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' };

/** Whether the element is within NEAR of the viewport (once true, stays true). */
function useNearViewport(ref: RefObject<HTMLElement | null>) {
  const [near, setNear] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (near || !ref.current) return;
    const io = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setNear(true), { rootMargin: NEAR });
    io.observe(ref.current);
    return () => io.disconnect();
  }, [near, ref]);
  return near;
}

/** Runs `f` once the browser is idle after painting (the figures drawn first), at the latest after 500 ms. */
function whenIdle(f: () => void) {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(f, { timeout: 500 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(f, 0);
  return () => clearTimeout(id);
}

/**
 * An ECharts chart in the console's theme (ECharts' dark theme on a transparent background in dark mode),
 * resized with its box. ECharts (./echarts, 183 KB gzip, a chunk of its own) is fetched only when a chart
 * comes near the viewport, and then when the browser is idle: the screen shows its figures without it.
 * Until then the chart's box keeps its size and shows a loading state (aria-busy, a status text).
 */
export function Chart({ option, height = 260, testId, label }: { option: EChartsCoreOption; height?: number; testId?: string; label?: string }) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const latest = useRef(option);
  latest.current = option;
  const stillRef = useRef(false);
  const { theme } = usePrefs();
  // Less motion asked: the chart is drawn at once (ECharts otherwise animates each drawing for a second).
  const still = useReducedMotion();
  stillRef.current = still;
  const near = useNearViewport(frame);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!near) return;
    let disposed = false;
    let observer: ResizeObserver | undefined;
    const cancel = whenIdle(() => {
      void import('./echarts').then(({ echarts }) => {
        if (disposed || !box.current) return;
        const c = echarts.init(box.current, theme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
        c.setOption({ backgroundColor: 'transparent', animation: !stillRef.current, ...latest.current });
        chart.current = c;
        observer = new ResizeObserver(() => c.resize());
        observer.observe(box.current);
        setReady(true);
      });
    });
    return () => {
      disposed = true;
      cancel();
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
      setReady(false);
    };
  }, [theme, near]);

  useEffect(() => {
    chart.current?.setOption({ backgroundColor: 'transparent', animation: !still, ...option }, { notMerge: true });
  }, [option, still]);

  return (
    <div ref={frame} style={{ position: 'relative', height }} data-testid={testId} aria-busy={!ready} data-chart-state={ready ? 'drawn' : near ? 'loading' : 'waiting'}>
      {!ready && (
        <>
          {/* Waiting to be near: an empty place of its size (nothing loads); near, a skeleton until drawn. */}
          {near && <Skeleton active paragraph={{ rows: 5 }} style={{ position: 'absolute', inset: 0 }} />}
          <span role="status" style={HIDDEN}>
            {t('statistics.chart.loading')}
          </span>
        </>
      )}
      <div ref={box} role={label ? 'img' : undefined} aria-label={label} style={{ height, width: '100%' }} />
    </div>
  );
}

/** A titled panel holding one chart, or an empty box of the chart's height while its data loads. */
export function ChartCard({ title, option, testId, height = 260 }: { title: string; option: EChartsCoreOption | undefined; testId: string; height?: number }) {
  return (
    <Panel title={title}>
      {option ? <Chart option={option} height={height} testId={testId} label={title} /> : <div style={{ height }} />}
    </Panel>
  );
}
