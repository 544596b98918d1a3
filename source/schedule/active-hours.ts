export interface ActiveHours {
  start: string;
  end: string;
  timezone?: string | undefined;
}

function minutesOf(clock: string): number {
  const [h, m] = clock.split(':').map(Number);
  return h! * 60 + m!;
}

// Building a DateTimeFormat costs ~0.5 ms (ICU time zone data), and the schedule's glance asks for today on every snapshot.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatFor(timezone: string): Intl.DateTimeFormat {
  let format = formats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timezone, format);
  }
  return format;
}

function localParts(now: number, timezone: string): { minutes: number; day: string } {
  const parts = formatFor(timezone).formatToParts(now);
  const get = (type: string): string => parts.find((p) => p.type === type)?.value ?? '00';
  return { minutes: Number(get('hour')) * 60 + Number(get('minute')), day: `${get('year')}-${get('month')}-${get('day')}` };
}

/** Whether `now` falls inside the window; a window whose end is before its start runs over midnight. */
export function withinActiveHours(now: number, hours: ActiveHours): boolean {
  const { minutes } = localParts(now, hours.timezone ?? 'UTC');
  const start = minutesOf(hours.start);
  const end = minutesOf(hours.end);
  if (start === end) return true;
  return start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
}

/** The calendar day (YYYY-MM-DD) a daily budget counts in. */
export function dayKey(now: number, timezone = 'UTC'): string {
  return localParts(now, timezone).day;
}
