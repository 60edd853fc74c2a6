import { activeLocale, dateLocaleOf, intlTag, isolate } from './format.ts';

/** Apart from format.ts: only the school screen and the assignment form name time zones. */
const timeZoneLabels = new Map<string, string>();

/**
 * A time zone as a person reads it (issue 32): its IANA name, which says the place ("America/
 * Buenos Aires"), then the zone's name in the active locale ("hora de Argentina"). Kept per locale:
 * a menu of every zone builds about 400 of them.
 */
export function formatTimeZone(zone: string): string {
  const locale = intlTag(activeLocale());
  const key = `${locale} ${zone}`;
  let label = timeZoneLabels.get(key);
  if (label === undefined) {
    let name: string | undefined;
    try {
      name = new Intl.DateTimeFormat(dateLocaleOf(locale), { timeZone: zone, timeZoneName: 'longGeneric' })
        .formatToParts(new Date())
        .find((part) => part.type === 'timeZoneName')?.value;
    } catch {
      name = undefined; // a name this browser does not know: the place alone
    }
    const place = isolate(zone.replaceAll('_', ' '));
    label = name && name !== zone ? `${place} · ${name}` : place;
    timeZoneLabels.set(key, label);
  }
  return label;
}
