/**
 * "listopadu 2026" / "November 2026": the long month and year as they read inside a sentence
 * ("Členem od {{date}}", "Založena v {{date}}"). Asked for alone, Czech names the month in the
 * nominative ("listopad"), which is wrong after "od"; the form it takes beside a day is the
 * genitive the sentence needs, so that one replaces it. Languages whose month does not change
 * (English) read the same either way.
 */
export function formatMonthYearInPhrase(time: number | Date, lng: string): string {
  const date = typeof time === 'number' ? new Date(time) : time;
  const withDay = new Intl.DateTimeFormat(lng, { day: 'numeric', month: 'long', year: 'numeric' }).formatToParts(date);
  const declined = withDay.find((part) => part.type === 'month')?.value;
  return new Intl.DateTimeFormat(lng, { month: 'long', year: 'numeric' })
    .formatToParts(date)
    .map((part) => (part.type === 'month' && declined ? declined : part.value))
    .join('');
}
