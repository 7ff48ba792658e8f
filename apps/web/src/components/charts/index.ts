// Import only from lazily loaded routes: recharts must stay out of the home and dashboard chunks.
export { ChartFrame, type ChartFrameProps, type ChartTable, type ChartTableCell } from './chart-frame';
export {
  CategoryBarChart,
  summarizeCategories,
  type CategoryBarChartProps,
  type CategoryDatum,
} from './category-bar-chart';
export { HistogramChart, binLabel, type HistogramBin, type HistogramChartProps } from './histogram-chart';
export {
  TrendLineChart,
  formatDay,
  type TrendLineChartProps,
  type TrendPoint,
  type TrendSeries,
} from './trend-line-chart';
export { ShareDonutChart, type ShareDonutChartProps } from './share-donut-chart';
export { chartColors, chartPaletteClass, formatChartNumber, seriesColor } from './chart-theme';
