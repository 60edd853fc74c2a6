import type { BoardStroke } from '#shared/class-boards';
import { paintBoardStrokes, paintPaper, PAGE_HEIGHT, PAGE_WIDTH, UNITS_PER_PIXEL } from './board-render.ts';

/**
 * The class board on paper (issue 35), made in the browser with nothing downloaded: a page as a
 * PNG, the whole board as a PDF of one JPEG picture per page. The PDF is written here (a catalog,
 * a page tree, and per page its picture and the one-line drawing of it): a dozen objects a page,
 * where a PDF library would add some hundreds of kilobytes for the same. The page loads this
 * module only when someone exports.
 */

/** Pixels per CSS pixel of the sheet in the pictures: 2 gives 3200 × 2000, sharp on a projector or in print. */
const PICTURE_SCALE = 2;
/** A PDF page's size in points (1/72 in): 297 mm wide, A4 landscape's width, the sheet's 16:10 shape. */
const PDF_PAGE_WIDTH = 841.89;
const PDF_PAGE_HEIGHT = (PDF_PAGE_WIDTH * PAGE_HEIGHT) / PAGE_WIDTH;
const JPEG_QUALITY = 0.9;

/** A page's strokes painted on a new canvas of the sheet's size, on white. */
export function paintPagePicture(strokes: readonly BoardStroke[], scale = PICTURE_SCALE): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = Math.round((PAGE_WIDTH / UNITS_PER_PIXEL) * scale);
  canvas.height = Math.round((PAGE_HEIGHT / UNITS_PER_PIXEL) * scale);
  const context = canvas.getContext('2d', { alpha: false });
  if (!context) throw new Error('NO_CANVAS');
  paintPaper(context);
  const unit = scale / UNITS_PER_PIXEL;
  context.setTransform(unit, 0, 0, unit, 0, 0);
  paintBoardStrokes(context, strokes, 0, unit);
  return canvas;
}

function encode(canvas: HTMLCanvasElement, type: 'image/png' | 'image/jpeg'): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('ENCODING_FAILED'))),
      type,
      type === 'image/jpeg' ? JPEG_QUALITY : undefined,
    );
  });
}

/** The page as a PNG picture. */
export function exportPagePng(strokes: readonly BoardStroke[]): Promise<Blob> {
  return encode(paintPagePicture(strokes), 'image/png');
}

/** A JPEG picture of a PDF page, its bytes and size in pixels. */
export type PdfPicture = { jpeg: Uint8Array; width: number; height: number };

/** Every page of the board, in order, as one PDF (one page each). */
export async function exportBoardPdf(pages: readonly (readonly BoardStroke[])[]): Promise<Blob> {
  const pictures: PdfPicture[] = [];
  for (const strokes of pages) {
    const canvas = paintPagePicture(strokes);
    const jpeg = new Uint8Array(await (await encode(canvas, 'image/jpeg')).arrayBuffer());
    pictures.push({ jpeg, width: canvas.width, height: canvas.height });
  }
  return new Blob([buildPdf(pictures)], { type: 'application/pdf' });
}

/**
 * A PDF 1.4 file of one page per picture, each picture filling its page (DCTDecode: the JPEG's
 * bytes as they are). Objects: 1 the catalog, 2 the page tree, then per page its page, its
 * content and its picture; the cross-reference table gives each object's byte offset.
 */
export function buildPdf(pictures: readonly PdfPicture[]): Uint8Array<ArrayBuffer> {
  const text = new TextEncoder();
  const chunks: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const write = (part: string | Uint8Array) => {
    const bytes = typeof part === 'string' ? text.encode(part) : part;
    chunks.push(bytes);
    length += bytes.length;
  };
  const object = (id: number, body: () => void) => {
    offsets[id] = length;
    write(`${id} 0 obj\n`);
    body();
    write('\nendobj\n');
  };

  // The header's second line of high bytes tells tools the file is binary.
  write('%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n');
  const pageIds = pictures.map((_, index) => 3 + index * 3);
  object(1, () => write('<< /Type /Catalog /Pages 2 0 R >>'));
  object(2, () =>
    write(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pictures.length} >>`),
  );
  const width = PDF_PAGE_WIDTH.toFixed(2);
  const height = PDF_PAGE_HEIGHT.toFixed(2);
  pictures.forEach((picture, index) => {
    const pageId = pageIds[index]!;
    const contentId = pageId + 1;
    const imageId = pageId + 2;
    object(pageId, () =>
      write(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] ` +
          `/Resources << /XObject << /Im${index} ${imageId} 0 R >> >> /Contents ${contentId} 0 R >>`,
      ),
    );
    const drawing = `q ${width} 0 0 ${height} 0 0 cm /Im${index} Do Q`;
    object(contentId, () => write(`<< /Length ${drawing.length} >>\nstream\n${drawing}\nendstream`));
    object(imageId, () => {
      write(
        `<< /Type /XObject /Subtype /Image /Width ${picture.width} /Height ${picture.height} ` +
          `/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${picture.jpeg.length} >>\nstream\n`,
      );
      write(picture.jpeg);
      write('\nendstream');
    });
  });
  const count = 3 + pictures.length * 3;
  const xref = length;
  write(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let id = 1; id < count; id += 1) write(`${String(offsets[id]).padStart(10, '0')} 00000 n \n`);
  write(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);

  const file = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    file.set(chunk, at);
    at += chunk.length;
  }
  return file;
}

/** Saves a file the browser's way: the shared helper, kept here for the board page's lazy import. */
export { downloadBlob } from '../../lib/download-file.ts';

/** A file name from a class's and a page's names: what file systems refuse becomes a dash. */
export function fileNameOf(...parts: string[]): string {
  return (
    parts
      .join(' - ')
      // eslint-disable-next-line no-control-regex -- control characters are what file systems refuse
      .replace(/[\u0000-\u001f<>:"/\\|?*]+/g, '-')
      .trim()
      .slice(0, 120) || 'board'
  );
}
