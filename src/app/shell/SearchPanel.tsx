import { RecentSearches } from './RecentSearches';
import { SearchBox } from './SearchBox';
import './SearchPanel.css';

/** The right column's content: the search box and, below it, the recent searches. */
export function SearchPanel({ onDone, autoFocus }: { onDone?: () => void; autoFocus?: boolean }) {
  return (
    <div className="search-panel">
      <SearchBox onDone={onDone} autoFocus={autoFocus} />
      <RecentSearches onOpen={onDone} />
    </div>
  );
}
