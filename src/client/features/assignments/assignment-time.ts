import { useQuery } from '@tanstack/react-query';
import { instantToZoned, runtimeTimeZone, zonedToInstant } from '#shared/time-zones';
import { schoolQueries } from '../school/school-queries.ts';

/**
 * The school's wall clock for due and publish times (decision 058: the client turns the school's
 * date and time into an instant; decision 062: the school's time zone). The date fields are
 * typed on the school's clock whatever zone the browser is in.
 */

/**
 * The school's time zone as an IANA name ("Europe/Madrid"); undefined while the school's answer
 * is on its way, the browser's zone if it cannot be read.
 */
export function useSchoolTimeZone(): string | undefined {
  const school = useQuery(schoolQueries.status());
  if (school.isPending) return undefined;
  return school.data?.timeZone ?? runtimeTimeZone();
}

/** An instant as a datetime-local value ("2026-12-03T18:30") on `zone`'s clock; '' for none. */
export function toSchoolInput(instant: string | null, zone: string): string {
  if (!instant) return '';
  const date = new Date(instant);
  if (Number.isNaN(date.getTime())) return '';
  const { date: day, time } = instantToZoned(date, zone);
  return `${day}T${time}`;
}

/**
 * A datetime-local value on `zone`'s clock as an instant; null when empty. Something unreadable
 * is passed on as typed, for the schema to refuse at its field.
 */
export function fromSchoolInput(value: string, zone: string): string | null {
  if (value.trim() === '') return null;
  const [date = '', time = ''] = value.split('T');
  const instant = zonedToInstant({ date, time: time.slice(0, 5) }, zone);
  return instant ? instant.toISOString() : value;
}
