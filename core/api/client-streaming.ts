import { type Static, Type } from '@sinclair/typebox';
import { type QueryOf, endpoint, plainEntry } from './endpoint.js';

/**
 * The streams fediverse apps subscribe to over one WebSocket: the caller's home timeline with their
 * notifications (`user`), the notifications alone, every post (`public`) or this server's
 * (`public:local`), and a hashtag's posts (`hashtag`, `hashtag:local`, each with `tag`).
 */
export const CLIENT_STREAMS = ['user', 'user:notification', 'public', 'public:local', 'hashtag', 'hashtag:local'] as const;
export type ClientStreamName = (typeof CLIENT_STREAMS)[number];

export const isClientStream = (name: unknown): name is ClientStreamName => (CLIENT_STREAMS as readonly unknown[]).includes(name);

/** The streams that name a hashtag, and so need a `tag`. */
export const isHashtagStream = (name: ClientStreamName): boolean => name.startsWith('hashtag');

/** What a stream sends: a new status, a notification, a status gone (its id), a status changed. */
export const CLIENT_STREAM_EVENTS = ['update', 'notification', 'delete', 'status.update'] as const;
export type ClientStreamEvent = (typeof CLIENT_STREAM_EVENTS)[number];

/**
 * One message of the server: the stream it belongs to (its name, then the tag for a hashtag's) and
 * the event, its payload the entity as JSON text (a Status, a Notification), or a deleted status's id.
 */
export const StreamMessage = Type.Object({
  stream: Type.Array(Type.String()),
  event: Type.Union(CLIENT_STREAM_EVENTS.map((name) => Type.Literal(name))),
  payload: Type.String(),
});
export type StreamMessage = Static<typeof StreamMessage>;

/** What an app sends on the socket: subscribe to a stream or leave it. */
export interface StreamRequest {
  type: 'subscribe' | 'unsubscribe';
  stream: string;
  tag?: string;
}

const STREAMING_DESCRIPTION =
  'The access token comes as `Authorization: Bearer`, as the WebSocket protocol (`Sec-WebSocket-Protocol`), or as `access_token`. ' +
  'An app subscribes with `{"type":"subscribe","stream":"user"}` (`tag` beside it for `hashtag` and `hashtag:local`) and leaves with ' +
  '`unsubscribe`; `stream` (and `tag`) in the address subscribes at once. Streams: user, user:notification, public, public:local, ' +
  'hashtag, hashtag:local. Each message is `{"stream":[…],"event":…,"payload":"…"}`: update (a Status as JSON text), notification ' +
  '(a Notification), delete (the status id), status.update (a Status edited). Everything sent is what the caller may read.';

export const clientStreamingApi = {
  streaming: endpoint({
    method: 'GET',
    path: '/v1/streaming',
    summary: 'A WebSocket of live statuses and notifications (needs read, or read:statuses / read:notifications for the streams they cover)',
    description: STREAMING_DESCRIPTION,
    query: Type.Object({
      stream: Type.Optional(Type.String({ maxLength: 40 })),
      tag: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
      access_token: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    // The socket's messages, each of this shape, stand for the answer (the opening itself answers 101).
    replies: { 200: StreamMessage },
    errors: ['insufficient_scope', 'unknown_stream', 'websocket_required'],
  }),
  health: plainEntry('GET', '/v1/streaming/health', 'Whether the streaming endpoint answers: the text OK', Type.Literal('OK')),
};

/** What an opening request may name: the stream to subscribe at once and its tag, and the token. */
export type StreamingQuery = QueryOf<typeof clientStreamingApi.streaming>;
