const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? '';
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(key, format);
  }
  return format;
}

/** `YYYY-MM-DD` of an instant in a time zone (the machine's when absent): budgets' days begin at local midnight. */
export function dayOf(at: number, timeZone?: string): string {
  const parts = formatter(timeZone).formatToParts(new Date(at));
  const part = (type: string): string => parts.find((p) => p.type === type)?.value ?? '00';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The `YYYY-MM-DD` a number of days before a day (calendar arithmetic, no time zone involved). */
export function daysBefore(day: string, count: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - count);
  return date.toISOString().slice(0, 10);
}
