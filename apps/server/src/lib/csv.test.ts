import { describe, expect, it } from 'vitest';
import { csvCell, csvFileName, toCsv } from './csv';

describe('csvCell', () => {
  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('plain')).toBe('plain');
  });

  it('neutralizes spreadsheet formulas in text but not negative numbers', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-3)).toBe('-3');
  });

  it('writes empty cells for null and ISO dates for dates', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(new Date('2026-01-02T03:04:05.000Z'))).toBe('2026-01-02T03:04:05.000Z');
    expect(csvCell(true)).toBe('true');
  });
});

describe('toCsv', () => {
  it('writes a BOM, a header row and CRLF-terminated rows', () => {
    const csv = toCsv(
      [
        { header: 'Name', value: (row: { name: string; n: number }) => row.name },
        { header: 'Count', value: (row) => row.n },
      ],
      [
        { name: 'Ann', n: 1 },
        { name: 'Bo, Jr', n: 2 },
      ],
    );
    expect(csv).toBe('\uFEFFName,Count\r\nAnn,1\r\n"Bo, Jr",2\r\n');
  });
});

describe('csvFileName', () => {
  it('keeps header-safe characters only', () => {
    expect(csvFileName('courses "all"/2026')).toBe('courses-all-2026.csv');
    expect(csvFileName('learners.csv')).toBe('learners.csv');
    expect(csvFileName('///')).toBe('export.csv');
  });
});
