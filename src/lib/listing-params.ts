import { useCallback } from 'react';
import { useSearchParams } from 'react-router-dom';
import { LISTING_DEFAULTS, type Sort, type TimeWindow, isSort, isTimeWindow, listingSearchParams } from '#core/listing';

type Defaults = { sort: Sort; time: TimeWindow };
const NONE: readonly string[] = [];

/** Sort and time of a listing from the address; a missing or unknown value is the default. */
export function readListing(params: URLSearchParams, defaults: Defaults = LISTING_DEFAULTS): { sort: Sort; time: TimeWindow } {
  const sort = params.get('sort');
  const time = params.get('time');
  return { sort: isSort(sort) ? sort : defaults.sort, time: isTimeWindow(time) ? time : defaults.time };
}

/**
 * A listing page's sort and time kept in the address, written by listingSearchParams.
 * `keep` names other parameters that survive a change (the others, e.g. one-time requests, go).
 */
export function useListingParams(defaults: Defaults = LISTING_DEFAULTS, keep: readonly string[] = NONE) {
  const [params, setParams] = useSearchParams();
  const { sort, time } = readListing(params, defaults);
  const setListing = useCallback(
    (nextSort: Sort, nextTime: TimeWindow) =>
      setParams((previous) => {
        const next = new URLSearchParams(listingSearchParams(nextSort, nextTime, defaults));
        for (const name of keep) {
          const value = previous.get(name);
          if (value) next.set(name, value);
        }
        return next;
      }),
    [defaults, keep, setParams],
  );
  return { sort, time, setListing };
}
