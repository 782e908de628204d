import { Type } from '@sinclair/typebox';
import { ID_PATTERN } from './ids';

/** JSON-schema pieces every module's route schemas share. */
export const Id = Type.String({ pattern: ID_PATTERN });
export const IdParams = Type.Object({ id: Id });
/** `{message: "error/..."}` or `{message: "info/..."}`. */
export const MessageReply = Type.Object({ message: Type.String() });
export const ErrorReplies = {
  400: MessageReply,
  401: MessageReply,
  403: MessageReply,
  404: MessageReply,
  409: MessageReply,
  429: MessageReply,
} as const;
