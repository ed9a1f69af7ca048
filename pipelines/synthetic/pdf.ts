// A small flowing-text writer over pdf-lib: standard fonts (WinAnsi), word wrap, page breaks with running
// header and footer, and fixed metadata so the same input always gives the same bytes.
import { PDFDocument, type PDFFont, type PDFPage, StandardFonts } from 'pdf-lib';

export type FontName = 'H' | 'HB' | 'T' | 'TB' | 'TI';
const STANDARD: Record<FontName, StandardFonts> = {
  H: StandardFonts.Helvetica,
  HB: StandardFonts.HelveticaBold,
  T: StandardFonts.TimesRoman,
  TB: StandardFonts.TimesRomanBold,
  TI: StandardFonts.TimesRomanItalic,
};

export const PAGE_W = 612;
export const PAGE_H = 792;
export const RIGHT = 558;

// Glyph widths per font at 1pt, filled on first use; the allowed set is WinAnsi (the same for all five fonts).
const widths = new Map<FontName, Map<number, number>>();
let allowed: Set<number> | null = null;

function widthTable(name: FontName, font: PDFFont): Map<number, number> {
  let table = widths.get(name);
  if (!table) {
    table = new Map();
    for (const cp of font.getCharacterSet())
      table.set(cp, font.widthOfTextAtSize(String.fromCodePoint(cp), 1000) / 1000);
    widths.set(name, table);
    allowed ??= new Set(font.getCharacterSet());
  }
  return table;
}

/** Replaces characters outside WinAnsi: accents are dropped, anything else becomes `?`. */
export function sanitize(text: string): string {
  let out = '';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (allowed!.has(cp)) out += ch;
    else if (ch === '\t' || ch === '\u00a0' || ch === '\u2009') out += ' ';
    else if (ch === '\u2011' || ch === '\u2010') out += '-';
    else {
      const base = ch.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
      out += [...base].every((c) => allowed!.has(c.codePointAt(0)!)) && base !== '' ? base : '?';
    }
  }
  return out;
}

export interface Metadata {
  title: string;
  subject: string;
  keywords: string[];
  date: Date;
}

export class Writer {
  pdf!: PDFDocument;
  private fonts = {} as Record<FontName, PDFFont>;
  page!: PDFPage;
  /** Baseline of the next line. */
  y = 0;
  pages = 0;
  top = 703;
  /** Right edge paragraphs wrap at. */
  right = RIGHT;
  bottom = 62;
  /** Called on each new page (after the first) to draw the running header; returns the first baseline. */
  onPage: ((w: Writer) => void) | null = null;
  /** Called for each finished page to draw the footer. */
  onFooter: ((w: Writer, physicalPage: number) => void) | null = null;

  static async create(meta: Metadata): Promise<Writer> {
    const w = new Writer();
    w.pdf = await PDFDocument.create({ updateMetadata: false });
    for (const k of Object.keys(STANDARD) as FontName[]) {
      w.fonts[k] = w.pdf.embedStandardFont(STANDARD[k]);
      widthTable(k, w.fonts[k]);
    }
    w.pdf.setTitle(meta.title);
    w.pdf.setSubject(meta.subject);
    w.pdf.setKeywords(meta.keywords);
    w.pdf.setAuthor('Board Records synthetic corpus generator');
    w.pdf.setCreator('board-records pipelines/synthetic');
    w.pdf.setProducer('pdf-lib (board-records synthetic)');
    w.pdf.setCreationDate(meta.date);
    w.pdf.setModificationDate(meta.date);
    return w;
  }

  width(text: string, font: FontName, size: number): number {
    const t = widths.get(font)!;
    let sum = 0;
    for (let i = 0; i < text.length; i++) sum += t.get(text.charCodeAt(i)) ?? 0.5;
    return sum * size;
  }

  /** Starts a page; the running header is the caller's `onPage`. */
  newPage(running = true): void {
    if (this.page && this.onFooter && this.footerOn) this.onFooter(this, this.pages);
    this.page = this.pdf.addPage([PAGE_W, PAGE_H]);
    this.pages++;
    this.y = this.top;
    this.footerOn = running;
    if (running && this.onPage) this.onPage(this);
  }
  private footerOn = false;

  /** Draws one string at an absolute position (no flow). */
  at(text: string, x: number, y: number, font: FontName, size: number): void {
    if (text === '') return;
    this.page.drawText(sanitize(text), { x, y, size, font: this.fonts[font] });
  }

  centered(text: string, y: number, font: FontName, size: number, center = PAGE_W / 2): void {
    const t = sanitize(text);
    this.at(t, center - this.width(t, font, size) / 2, y, font, size);
  }

  rightAligned(text: string, y: number, font: FontName, size: number, right = RIGHT): void {
    const t = sanitize(text);
    this.at(t, right - this.width(t, font, size), y, font, size);
  }

  /** Makes sure `h` points are left on the page, else breaks. */
  need(h: number): void {
    if (this.y - h < this.bottom) this.newPage();
  }

  gap(h: number): void {
    this.y -= h;
  }

  /** Greedy word wrap into lines no wider than `max` (`restMax` for lines after the first). */
  wrap(text: string, font: FontName, size: number, max: number, restMax = max): string[] {
    const words = sanitize(text)
      .split(/ +/)
      .filter((w) => w !== '');
    const lines: string[] = [];
    const space = this.width(' ', font, size);
    let line = '';
    let lineW = 0;
    for (const w of words) {
      const ww = this.width(w, font, size);
      if (line !== '' && lineW + space + ww > (lines.length === 0 ? max : restMax)) {
        lines.push(line);
        line = w;
        lineW = ww;
      } else {
        line = line === '' ? w : `${line} ${w}`;
        lineW = line === w ? ww : lineW + space + ww;
      }
    }
    if (line !== '') lines.push(line);
    return lines;
  }

  /** Flows a paragraph at `x` (continuation lines at `x2`), `step` points apart, breaking pages as needed. */
  para(
    text: string,
    x: number,
    font: FontName,
    size: number,
    step: number,
    opts: { x2?: number; right?: number } = {},
  ): void {
    const x2 = opts.x2 ?? x;
    const right = opts.right ?? this.right;
    const lines = this.wrap(text, font, size, right - x, right - x2);
    lines.forEach((l, i) => {
      if (this.y < this.bottom) this.newPage();
      this.at(l, i === 0 ? x : x2, this.y, font, size);
      this.y -= step;
    });
  }

  async save(): Promise<Uint8Array> {
    if (this.onFooter && this.footerOn) this.onFooter(this, this.pages);
    // pdf-lib writes no /ID; make sure none sneaks in, so bytes depend on content only.
    this.pdf.context.trailerInfo.ID = undefined;
    return this.pdf.save({ useObjectStreams: true, addDefaultPage: false });
  }
}
