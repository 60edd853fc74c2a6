/** Hands a CSV text to the browser as a download named `fileName` (built here: nothing is sent). */
export function downloadCsv(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; revoking later keeps slower browsers safe.
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
