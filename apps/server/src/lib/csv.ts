import type { FastifyReply } from 'fastify';

/**
 * CSV exports of the lists (RFC 4180). A cell that a spreadsheet would run
 * as a formula (`=`, `+`, `-`, `@`, tab, carriage return at the start) is
 * prefixed with `'`, because learner names and answers come from courses
 * anyone can write to.
 */

export type CsvColumn<Row> = {
  header: string;
  value: (row: Row) => string | number | boolean | Date | null | undefined;
};

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | boolean | Date | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: Iterable<Row>): string {
  const lines = [columns.map((column) => csvCell(column.header)).join(',')];
  for (const row of rows) lines.push(columns.map((column) => csvCell(column.value(row))).join(','));
  // CRLF per RFC 4180; the BOM makes Excel read UTF-8 names correctly.
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** A file name safe in a Content-Disposition header: letters, digits, dot, dash, underscore. */
export function csvFileName(base: string): string {
  const safe = base.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'export';
  return safe.endsWith('.csv') ? safe : `${safe}.csv`;
}

export function sendCsv<Row>(
  reply: FastifyReply,
  fileName: string,
  columns: readonly CsvColumn<Row>[],
  rows: Iterable<Row>,
): FastifyReply {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${csvFileName(fileName)}"`)
    .header('cache-control', 'no-store')
    .send(toCsv(columns, rows));
}

/** Exports stop at this many rows, so one click cannot hold the server for minutes. */
export const MAX_EXPORT_ROWS = 100_000;
