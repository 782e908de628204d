import type { OutboxRow } from '../db/db';
import { commentHandler } from './kinds/comment';
import { editHandler } from './kinds/edit';
import type { OutboxHandler, OutboxHandlers } from './kinds/handler';
import { languageHandler } from './kinds/language';
import { likeHandler } from './kinds/like';
import { postHandler } from './kinds/post';
import { safetyHandler } from './kinds/safety';
import { reportHandler } from './kinds/report';

/** The kinds of item the outbox sends, each with its handler. */
export const outboxHandlers: OutboxHandlers = {
  post: postHandler,
  comment: commentHandler,
  like: likeHandler,
  safety: safetyHandler,
  report: reportHandler,
  edit: editHandler,
  language: languageHandler,
};

/** The handler of a row's kind. */
export const handlerOf = <R extends OutboxRow>(row: R): OutboxHandler<R> =>
  outboxHandlers[row.kind] as unknown as OutboxHandler<R>;
