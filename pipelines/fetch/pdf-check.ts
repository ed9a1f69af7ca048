// Content check: a PDF is a PDF — the `%PDF-` magic near the start, and pdf.js opens it; the page count comes with it.
import { readFile } from 'node:fs/promises';

import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export class ContentError extends Error {}

export async function checkPdf(path: string): Promise<{ pages: number }> {
  const data = new Uint8Array(await readFile(path));
  // The spec lets the header sit within the first 1024 bytes.
  if (!Buffer.from(data.buffer, 0, Math.min(1024, data.length)).includes('%PDF-')) {
    const head = Buffer.from(data.buffer, 0, Math.min(60, data.length)).toString('latin1').replace(/\s+/g, ' ').trim();
    throw new ContentError(`not a PDF (starts with '${head}')`);
  }
  let doc;
  try {
    doc = await getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  } catch (err) {
    throw new ContentError(`not a readable PDF: ${(err as Error).message}`);
  }
  try {
    if (doc.numPages < 1) throw new ContentError('PDF has no pages');
    return { pages: doc.numPages };
  } finally {
    await doc.destroy();
  }
}
