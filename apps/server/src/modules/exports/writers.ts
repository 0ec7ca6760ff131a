import type { FileHandle } from 'node:fs/promises';
import type { ExportColumn } from '../../platform/listing.js';
import { cellReader, csvField, xmlText, XLSX_CELL_MAX, type Cell, type CellOf } from './cells.js';
import { ZipWriter } from './zip.js';
import { headerText } from '../../platform/csv.js';

/** Writes the rows of an export, one batch at a time; nothing of a batch is kept once it is written. */
export interface RowWriter {
  start(): Promise<void>;
  write(rows: readonly Record<string, unknown>[]): Promise<void>;
  finish(): Promise<void>;
}

async function writeAll(fh: FileHandle, buf: Buffer) {
  let done = 0;
  while (done < buf.length) {
    const { bytesWritten } = await fh.write(buf, done, buf.length - done);
    done += bytesWritten;
  }
}

/** How the asker reads the file: the language of the labels, the column headers, the time zone of the instants. */
export interface FileLook {
  locale: string;
  /** Header per column key, in the asker's language (the list's column labels); the key where none is given. */
  labels?: Readonly<Record<string, string>>;
  timeZone?: string;
}

function readers(columns: readonly ExportColumn[], look: FileLook): CellOf[] {
  return columns.map((c) => cellReader(c, look.locale, look.timeZone));
}

/** The header of a column: its label in the asker's language, else its key. */
export const headerOf = (c: ExportColumn, look: FileLook) => headerText(c.key, look.labels);

const lookOf = (look: FileLook | string): FileLook => (typeof look === 'string' ? { locale: look } : look);

/** CSV (RFC 4180 quoting, LF line ends), UTF-8 with a BOM so that Excel reads it as UTF-8. */
export class CsvWriter implements RowWriter {
  private read: CellOf[];
  /** The write of the previous batch: the next batch is built while it goes to disk (two batches in memory at most). */
  private pending: Promise<void> = Promise.resolve();
  constructor(
    private fh: FileHandle,
    private columns: readonly ExportColumn[],
    look: FileLook | string,
  ) {
    this.look = lookOf(look);
    this.read = readers(columns, this.look);
  }

  private look: FileLook;

  async start() {
    const header = this.columns.map((c) => csvField({ t: 's', v: headerOf(c, this.look) })).join(',');
    await writeAll(this.fh, Buffer.from(`\uFEFF${header}\n`, 'utf8'));
  }

  async write(rows: readonly Record<string, unknown>[]) {
    const { columns, read } = this;
    let out = '';
    for (const row of rows) {
      let line = '';
      for (let i = 0; i < columns.length; i++) {
        if (i) line += ',';
        line += csvField(read[i]!(row[columns[i]!.key], row));
      }
      out += line + '\n';
    }
    if (!out) return;
    const before = this.pending;
    const mine = before.then(() => writeAll(this.fh, Buffer.from(out, 'utf8')));
    mine.catch(() => {});
    this.pending = mine;
    await before;
  }

  async finish() {
    await this.pending;
  }
}

const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
/** Rows of one sheet, the header included (Excel's limit). */
export const XLSX_MAX_ROWS = 1_048_576;

const STYLES =
  `${XML_DECL}<styleSheet xmlns="${NS}">` +
  '<numFmts count="1"><numFmt numFmtId="164" formatCode="#,##0.000000"/></numFmts>' +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  // 0 default, 1 bold header, 2 amounts with the built-in "#,##0.00", 3 USDT amounts "#,##0.000000" (format 164)
  '<cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 160;

function strCell(s: string, style = ''): string {
  const v = xmlText(s.length > XLSX_CELL_MAX ? s.slice(0, XLSX_CELL_MAX) : s);
  const space = v.length && (isSpace(v.charCodeAt(0)) || isSpace(v.charCodeAt(v.length - 1))) ? ' xml:space="preserve"' : '';
  return `<c${style} t="inlineStr"><is><t${space}>${v}</t></is></c>`;
}

function xlsxCell(c: Cell): string {
  if (c === null) return '<c/>';
  switch (c.t) {
    case 'n':
      return `<c><v>${c.v}</v></c>`;
    case 'm':
      return `<c s="${c.dp === 6 ? 3 : 2}"><v>${c.v}</v></c>`;
    default:
      // Inline strings are text, never formulas: no apostrophe needed (it would show in the cell).
      return strCell(c.v);
  }
}

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\ . */
export function sheetName(s: string): string {
  return s.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet';
}

/**
 * XLSX (Office Open XML) streamed into a zip: the sheet XML is produced and deflated batch by batch;
 * text goes as inline strings (no shared-string table to hold in memory), amounts as numbers with a
 * "#,##0.00" format, the header row bold and frozen. Past Excel's 1,048,576 rows a new sheet starts.
 */
export class XlsxWriter implements RowWriter {
  private zip: ZipWriter;
  private read: CellOf[];
  private sheets = 0;
  private rowInSheet = 0;
  private readonly name: string;
  private readonly head: string;
  private readonly maxRows: number;

  constructor(
    fh: FileHandle,
    private columns: readonly ExportColumn[],
    look: FileLook | string,
    name: string,
    opts: { level?: number; maxRows?: number } = {},
  ) {
    const seen = lookOf(look);
    this.zip = new ZipWriter(fh, opts.level ?? 1);
    this.read = readers(columns, seen);
    this.name = sheetName(name);
    this.maxRows = opts.maxRows ?? XLSX_MAX_ROWS;
    const cols = columns.map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.money ? 16 : c.key.endsWith('_at') || c.key.endsWith('time') ? 22 : 18}" customWidth="1"/>`).join('');
    this.head =
      `${XML_DECL}<worksheet xmlns="${NS}" xmlns:r="${NS_R}">` +
      '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
      `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>` +
      `<row r="1">${columns.map((c) => strCell(headerOf(c, seen), ' s="1"')).join('')}</row>`;
  }
  private async openSheet() {
    this.sheets++;
    await this.zip.begin(`xl/worksheets/sheet${this.sheets}.xml`);
    await this.zip.write(Buffer.from(this.head, 'utf8'));
    this.rowInSheet = 1;
  }

  private async closeSheet() {
    await this.zip.write(Buffer.from('</sheetData></worksheet>', 'utf8'));
    await this.zip.endEntry();
  }

  async start() {
    await this.openSheet();
  }

  async write(rows: readonly Record<string, unknown>[]) {
    const { columns, read } = this;
    let out = '';
    for (const row of rows) {
      if (this.rowInSheet >= this.maxRows) {
        if (out) await this.zip.write(Buffer.from(out, 'utf8'));
        out = '';
        await this.closeSheet();
        await this.openSheet();
      }
      this.rowInSheet++;
      let line = `<row r="${this.rowInSheet}">`;
      for (let i = 0; i < columns.length; i++) line += xlsxCell(read[i]!(row[columns[i]!.key], row));
      out += line + '</row>';
    }
    if (out) await this.zip.write(Buffer.from(out, 'utf8'));
  }

  async finish() {
    await this.closeSheet();
    const n = this.sheets;
    const ids = Array.from({ length: n }, (_, i) => i + 1);
    const title = (i: number) => xmlText(n === 1 ? this.name : sheetName(`${this.name.slice(0, 27)} ${i}`));
    await this.zip.add(
      '[Content_Types].xml',
      `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
        ids.map((i) => `<Override PartName="/xl/worksheets/sheet${i}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`).join('') +
        '</Types>',
    );
    await this.zip.add(
      '_rels/.rels',
      `${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>' +
        '</Relationships>',
    );
    await this.zip.add(
      'xl/workbook.xml',
      `${XML_DECL}<workbook xmlns="${NS}" xmlns:r="${NS_R}"><sheets>` +
        ids.map((i) => `<sheet name="${title(i)}" sheetId="${i}" r:id="rId${i}"/>`).join('') +
        '</sheets></workbook>',
    );
    await this.zip.add(
      'xl/_rels/workbook.xml.rels',
      `${XML_DECL}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        ids.map((i) => `<Relationship Id="rId${i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i}.xml"/>`).join('') +
        `<Relationship Id="rId${n + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
        '</Relationships>',
    );
    await this.zip.add('xl/styles.xml', STYLES);
    await this.zip.close();
  }
}
