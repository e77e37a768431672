import { formatDateTime } from '../../lib/format';

/** A date and time; an empty string for none. */
export const formatDate = (iso: string | null | undefined) => (iso ? formatDateTime(iso) : '');

/** Any JSON value as indented text (rendered as text, never HTML). */
export const asText = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value, null, 2));
