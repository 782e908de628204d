import { useParams } from 'react-router-dom';

/**
 * The route of a profile or a group page: its name from `param` and what it shows from `show`
 * (its posts when absent). `show` is null for a list the page does not have.
 */
export function useSubjectRoute<S extends string>(param: string, shows: readonly S[]): { name: string; show: S | 'posts' | null } {
  const params = useParams();
  const show = params.show ?? 'posts';
  return { name: params[param] ?? '', show: show === 'posts' || (shows as readonly string[]).includes(show) ? (show as S | 'posts') : null };
}
