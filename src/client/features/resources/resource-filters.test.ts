import { describe, expect, it } from 'vitest';
import { urlOf } from '../../lib/api.ts';
import { listResources } from '#shared/contract/resources';
import { readUrlFilters, withUrlFilters } from '../../lib/url-filters.ts';
import { isImage, isVideo, joinTags, resourceListQuery, STUDENT_RESOURCE_FILTERS } from './resource-filters.ts';

const readStudentFilters = (params: URLSearchParams) => readUrlFilters(STUDENT_RESOURCE_FILTERS, params);

describe('the student’s filters in the address', () => {
  it('reads the defaults from an empty address: all, newest first', () => {
    expect(readStudentFilters(new URLSearchParams())).toEqual({
      view: 'all',
      search: '',
      subject: '',
      type: '',
      sort: 'date',
    });
  });

  it('reads every filter, trimming the texts', () => {
    const params = new URLSearchParams('view=starred&search=%20waves%20&subject=Physics&type=video&sort=name');
    expect(readStudentFilters(params)).toEqual({
      view: 'starred',
      search: 'waves',
      subject: 'Physics',
      type: 'video',
      sort: 'name',
    });
  });

  it('takes the default for a value it does not know instead of failing', () => {
    const params = new URLSearchParams('view=mine&type=audio&sort=size');
    expect(readStudentFilters(params)).toMatchObject({ view: 'all', type: '', sort: 'date' });
  });
});

describe('changing the student’s filters in the address', () => {
  const defaults = readStudentFilters(new URLSearchParams());
  const withFilter = (current: string, name: string, value: string) =>
    withUrlFilters(new URLSearchParams(current), { [name]: value }, defaults).toString();

  it('sets a value and keeps the others', () => {
    expect(withFilter('type=image', 'search', 'notes')).toBe('type=image&search=notes');
  });

  it('removes an empty value and a default, so the plain address is the default list', () => {
    expect(withFilter('search=a&type=image', 'search', '')).toBe('type=image');
    expect(withFilter('view=starred', 'view', 'all')).toBe('');
    expect(withFilter('sort=name', 'sort', 'date')).toBe('');
  });
});

describe('resourceListQuery', () => {
  const sent = (query: ReturnType<typeof resourceListQuery>, offset: number) =>
    Object.fromEntries(new URL(urlOf(listResources, { query: { ...query, offset } }), 'http://x').searchParams);

  it('asks for the newest first by default (SPEC §7), without empty filters and without a class', () => {
    expect(sent(resourceListQuery({ search: '' }), 0)).toEqual({
      sortBy: 'createdAt',
      sortOrder: 'desc',
      offset: '0',
      limit: '20',
    });
  });

  it('sends every chosen filter, the name sort ascending and the Starred view', () => {
    const query = resourceListQuery(
      { view: 'starred', search: 'waves', subject: 'Physics', type: 'video', sort: 'name' },
      10,
    );
    expect(sent(query, 40)).toEqual({
      sortBy: 'fileName',
      sortOrder: 'asc',
      search: 'waves',
      subject: 'Physics',
      type: 'video',
      starred: 'true',
      offset: '40',
      limit: '10',
    });
  });
});

describe('kinds of resource', () => {
  it('plays uploaded videos and hosted-video links, previews uploaded images', () => {
    expect(isVideo({ mimeType: 'video/mp4' })).toBe(true);
    expect(isVideo({ mimeType: 'video/x-youtube' })).toBe(true);
    expect(isVideo({ mimeType: 'application/pdf' })).toBe(false);
    expect(isImage({ kind: 'file', mimeType: 'image/png' })).toBe(true);
    expect(isImage({ kind: 'file', mimeType: 'application/pdf' })).toBe(false);
  });

  it('joins tags with commas (SPEC §2)', () => {
    expect(joinTags(['algebra', 'homework'])).toBe('algebra, homework');
    expect(joinTags([])).toBe('');
  });
});
