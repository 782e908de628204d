import { Type } from '@sinclair/typebox';
import { Id } from '../../lib/schemas';

export const FollowBody = Type.Object({ following: Id });
export const ChangeFollowBody = Type.Object({ following: Id, notify: Type.Boolean() });
export const FollowStateReply = Type.Object({ follows: Type.Boolean(), notify: Type.Boolean() });
export const FollowedReply = Type.Object({ message: Type.String(), follows: Type.Boolean(), notify: Type.Boolean() });
