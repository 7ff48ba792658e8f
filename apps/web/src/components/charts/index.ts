// Import only from lazily loaded routes: recharts must stay out of the home and dashboard chunks.
export {
  ChartFrame,
  type AxisTitles,
  type ChartFrameProps,
  type ChartTable,
  type ChartTableCell,
} from './chart-frame';
export {
  BAR_ROW_HEIGHT,
  CategoryBarChart,
  capNote,
  summarizeCategories,
  type CategoryBarChartProps,
} from './category-bar-chart';
export {
  capCategories,
  MAX_BAR_CATEGORIES,
  MAX_PIE_SLICES,
  type CapCategoriesOptions,
  type CappedCategories,
  type CategoryDatum,
} from './categories';
export { HistogramChart, binLabel, type HistogramBin, type HistogramChartProps } from './histogram-chart';
export {
  TrendLineChart,
  formatDay,
  type TrendLineChartProps,
  type TrendPoint,
  type TrendSeries,
} from './trend-line-chart';
export { isCurrentPeriod, partialPeriodLabel, type TrendInterval } from './periods';
export { ShareDonutChart, type ShareDonutChartProps } from './share-donut-chart';
export {
  chartColors,
  chartPaletteClass,
  formatChartNumber,
  niceTicks,
  seriesColor,
  truncateLabel,
  withUnit,
} from './chart-theme';
export {
  HeatGrid,
  heatCellClass,
  heatStep,
  type HeatGridCell,
  type HeatGridColumn,
  type HeatGridLegendItem,
  type HeatGridProps,
  type HeatGridRow,
  type HeatScale,
} from './heat-grid';
