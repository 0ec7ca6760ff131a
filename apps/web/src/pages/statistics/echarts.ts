/**
 * The parts of ECharts the statistics screens use, in a chunk of their own (loaded by Chart after the
 * screen has rendered its figures): bar and line charts on a grid with tooltip and legend, canvas renderer.
 */
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export { echarts };
