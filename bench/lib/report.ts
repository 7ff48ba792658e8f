export type Measurement = {
  engine: string;
  label: string;
  rows: number;
  ms: number;
  note?: string;
};

export function rate(rows: number, ms: number): number {
  return ms > 0 ? Math.round((rows * 1000) / ms) : 0;
}

const number = (value: number) => value.toLocaleString('en-US');

/** A fixed-width table: engine, what was measured, rows, seconds, rows per second. */
export function formatMeasurements(measurements: readonly Measurement[]): string {
  const header = ['engine', 'what', 'rows', 'seconds', 'rows/s'];
  const lines = measurements.map((m) => [
    m.engine,
    m.label + (m.note ? ` (${m.note})` : ''),
    number(m.rows),
    (m.ms / 1000).toFixed(1),
    number(rate(m.rows, m.ms)),
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...lines.map((line) => line[column]?.length ?? 0)),
  );
  const format = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  return [format(header), widths.map((width) => '-'.repeat(width)).join('  '), ...lines.map(format)].join(
    '\n',
  );
}
