/**
 * Read by `npm run typecheck`, never run. Each `@ts-expect-error` needs an error on the line under
 * it, so were the keys of the catalogues no longer typed (any string taken as a key), the directives
 * would go unused and the typecheck would fail.
 */
import type { TFunction } from 'i18next';
import type { ErrorKey, InfoKey } from '#core/errors';
import type { AnyNamespaceT } from './i18n';

declare const common: TFunction<'common'>;
declare const post: TFunction<['post', 'common']>;
declare const screen: AnyNamespaceT;

const _keys = [
  common('conf.cancel'),
  // @ts-expect-error: a key no catalogue has
  common('some:missing.key'),
  // @ts-expect-error: a key its namespace does not have
  common('conf.no_such_text'),
  post('share_copied'),
  post('common:conf.cancel'),
  // @ts-expect-error: a namespace the screen did not ask for
  post('moderation:report.post'),
  screen('passwords_dont_match', { ns: 'error' }),
  // @ts-expect-error: not an error key
  screen('no_such_error', { ns: 'error' }),
];

/** Compiles while every error and info key of `core/errors.ts` has its text in the catalogues. */
const _messages = (error: ErrorKey, info: InfoKey) => [screen(error, { ns: 'error' }), screen(info, { ns: 'info' })];

// @ts-expect-error: a key outside the shared list has no text
const _unknownMessage = (key: ErrorKey | 'no_such_error') => screen(key, { ns: 'error' });
