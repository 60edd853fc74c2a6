/** A file field's look: its "Choose file" button drawn like our secondary buttons (both directions). */
export const FILE_INPUT_CLASSES =
  'w-full min-w-0 text-sm text-fg file:me-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-surface-muted file:px-3 file:py-2 file:font-semibold file:text-fg';
