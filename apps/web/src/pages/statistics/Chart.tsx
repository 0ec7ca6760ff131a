import { useEffect, useRef, useState } from 'react';
import { Card, Skeleton } from 'antd';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { usePrefs } from '../../app/prefs';

/**
 * An ECharts chart, loaded lazily (./echarts is its own chunk, fetched when the first chart mounts), in
 * the console's theme (ECharts' dark theme on a transparent background in dark mode), resized with its box.
 */
export function Chart({ option, height = 260, testId }: { option: EChartsCoreOption; height?: number; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const latest = useRef(option);
  latest.current = option;
  const { theme } = usePrefs();
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void import('./echarts').then(({ echarts }) => {
      if (disposed || !box.current) return;
      const c = echarts.init(box.current, theme === 'dark' ? 'dark' : undefined, { renderer: 'canvas' });
      c.setOption({ backgroundColor: 'transparent', ...latest.current });
      chart.current = c;
      observer = new ResizeObserver(() => c.resize());
      observer.observe(box.current);
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
      setReady(false);
    };
  }, [theme]);

  useEffect(() => {
    chart.current?.setOption({ backgroundColor: 'transparent', ...option }, { notMerge: true });
  }, [option]);

  return (
    <div style={{ position: 'relative', height }} data-testid={testId}>
      {!ready && <Skeleton active paragraph={{ rows: 5 }} style={{ position: 'absolute', inset: 0 }} />}
      <div ref={box} style={{ height, width: '100%' }} />
    </div>
  );
}

/** A titled card holding one chart, or an empty box of the chart's height while its data loads. */
export function ChartCard({ title, option, testId, height = 260 }: { title: string; option: EChartsCoreOption | undefined; testId: string; height?: number }) {
  return (
    <Card size="small" title={title}>
      {option ? <Chart option={option} height={height} testId={testId} /> : <div style={{ height }} />}
    </Card>
  );
}
