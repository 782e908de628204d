import { appPaths } from '#core/app-paths';
import { SHARED_PARAM, keepShare, readShareForm } from '../src/lib/share/shared-items';

/**
 * Answers the share target's POST: keeps what was shared and sends the browser on to the
 * composer (303, so a reload does not post the share again). It runs in the worker, so sharing
 * works offline; without a form the composer opens empty rather than failing.
 */
export async function receiveShare(request: Request, scope: string): Promise<Response> {
  try {
    await keepShare(readShareForm(await request.formData()));
  } catch (err) {
    console.warn('share target', err);
  }
  return Response.redirect(new URL(`.${appPaths.compose()}?${SHARED_PARAM}=1`, scope).href, 303);
}
