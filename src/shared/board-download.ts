import * as decoding from 'lib0/decoding';
import * as encoding from 'lib0/encoding';

/**
 * The body of GET /api/class-boards/:classId/document (decision 069's addendum): the stored board as
 * a few Yjs updates, framed with lib0 (the count, then each update with its length). The server
 * keeps each board's merged document once read and sends it with the updates appended since,
 * rather than merging them again at each download (~0.3 s for 20,000 strokes); a page applies
 * them in order.
 */
export function encodeBoardDownload(updates: readonly Uint8Array[]): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, updates.length);
  for (const update of updates) encoding.writeVarUint8Array(encoder, update);
  return encoding.toUint8Array(encoder);
}

/** The updates of a download, in order; throws on a body that is not one. */
export function decodeBoardDownload(body: Uint8Array): Uint8Array[] {
  const decoder = decoding.createDecoder(body);
  const count = decoding.readVarUint(decoder);
  // Each update takes at least its length's byte: a count beyond that is a broken body.
  if (count > body.byteLength) throw new Error('not a board download');
  const updates: Uint8Array[] = [];
  for (let index = 0; index < count; index++) updates.push(decoding.readVarUint8Array(decoder));
  if (decoding.hasContent(decoder)) throw new Error('not a board download: bytes after its updates');
  return updates;
}
