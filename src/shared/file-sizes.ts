/** Sizes of files as people read them: upload limits, storage space, messages. */

const KILOBYTE = 1024;
/** A storage size as a person reads it: "512 bytes", "12.5 KB", "120 MB", "4.8 GB" (at most one decimal). */
export function formatStorageSize(bytes: number): string {
  const units = ['KB', 'MB', 'GB', 'TB'];
  if (bytes < KILOBYTE) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  let value = bytes / KILOBYTE;
  let unit = 0;
  while (value >= KILOBYTE && unit < units.length - 1) {
    value /= KILOBYTE;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}

/** SPEC §9: size shown in KB (bytes / 1024) with one decimal. */
export const formatSizeInKb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
