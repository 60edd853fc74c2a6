import { twMerge } from 'tailwind-merge';

/**
 * Throws when a class list joined by `cn` holds two utilities of one property (`px-4 px-3`):
 * the stylesheet's order, not the attribute's, would decide which wins. tailwind-merge knows the
 * properties; it runs here, in the component tests, and never in the bundle (decision 027).
 */
export function throwOnClassConflicts(classes: string): void {
  const kept = new Set(twMerge(classes).split(' '));
  const beaten = classes.split(/\s+/).filter((name) => name !== '' && !kept.has(name));
  if (beaten.length > 0)
    throw new Error(
      `cn(): ${beaten.join(', ')} set a property a later class sets again in "${classes}". ` +
        'Give the element one of them: a variant of the primitive, or the base class chosen by the condition.',
    );
}
