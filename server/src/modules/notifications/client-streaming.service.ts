import type { ClientNotification } from '#core/api/client-notifications';
import type { Status } from '#core/api/client-entities';
import { type ClientStreamEvent, type ClientStreamName, type StreamMessage, isClientStream, isHashtagStream } from '#core/api/client-streaming';
import { grantsScope } from '#core/client-apps';
import { selectKinds } from '#core/client-notifications';
import type { Keyset } from '../../db/helpers.js';
import { AppError } from '../../lib/app-error.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../lib/viewer.js';
import type { ClientCaller } from '../clientapi/client-caller.js';
import { postStatuses } from '../clientapi/statuses.service.js';
import type { PostView } from '../posts/posts.service.js';
import { type PostScope, hashtagScope, homeScope, listedInScope } from '../feeds/feeds.service.js';
import { asClientNotifications } from './client-notifications.service.js';
import { keyedNotifications } from './notifications.service.js';
import type { PostChange } from './post-signals.js';

/** The scope a stream's statuses need; notifications need read:notifications. */
const STATUS_SCOPE = 'read:statuses';
const NOTIFICATION_SCOPE = 'read:notifications';

/** Every kind of notification, as the list without types reads them. */
const ALL_KINDS = selectKinds([], []);
/** Notifications read per wake-up; more wait for the next signal. */
const NOTIFICATIONS_PER_READ = 40;
/** Statuses a stream remembers sending, so it can tell the app when one is deleted. */
const REMEMBERED = 500;

/** One stream an app subscribed to on its socket. */
interface Subscription {
  name: ClientStreamName;
  /** The stream as its messages name it: the name, and the tag for a hashtag's. */
  label: string[];
  /** Which posts it shows, or null for the notifications alone. */
  scope: PostScope | null;
  /** Only this server's posts, where the scope cannot say so itself. */
  local: boolean;
  notifications: boolean;
}

/** Whether the token may read a stream at all: it must be granted statuses or notifications. */
export const mayStream = (scopes: readonly string[]): boolean => grantsScope(scopes, STATUS_SCOPE) || grantsScope(scopes, NOTIFICATION_SCOPE);

/**
 * The subscription a request names, or a refusal: a stream there is none of (or a hashtag's without
 * a tag) is unknown_stream; one the token was not granted is insufficient_scope.
 */
export function subscriptionOf(viewer: Viewer, scopes: readonly string[], request: { stream?: unknown; tag?: unknown }): Subscription {
  const { stream: name, tag } = request;
  if (!isClientStream(name)) throw new AppError(400, 'unknown_stream');
  const hashtag = isHashtagStream(name);
  if (hashtag && (typeof tag !== 'string' || tag.trim() === '')) throw new AppError(400, 'unknown_stream');
  const notifications = name === 'user:notification' || (name === 'user' && grantsScope(scopes, NOTIFICATION_SCOPE));
  if (!grantsScope(scopes, name === 'user:notification' ? NOTIFICATION_SCOPE : STATUS_SCOPE)) throw new AppError(403, 'insufficient_scope');
  const scope: PostScope | null = hashtag
    ? hashtagScope(tag as string)
    : name === 'user'
      ? homeScope(viewer.id)
      : name === 'user:notification'
        ? null
        : name === 'public:local'
          ? { kind: 'all', local: true }
          : { kind: 'all' };
  // A hashtag's listing knows no origin: its local stream leaves the other servers' posts out itself.
  return { name, label: hashtag ? [name, tag as string] : [name], scope, local: name === 'hashtag:local', notifications };
}

/** Where a socket's messages go: the text to send, and whether it is still open. */
export interface StreamOutlet {
  send(message: string): void;
  readonly open: boolean;
}

/**
 * One app's socket: the streams it subscribed to, and what each signal of a post or of the viewer's
 * notifications makes of them. Every status and notification is read again as the viewer, through
 * the same reads as the timelines and the notification list, so a stream sends nothing its viewer
 * could not read there. Signals are handled one after another, so an update goes out before the
 * delete of the same status.
 */
export class ClientStream {
  private readonly subscriptions = new Map<string, Subscription>();
  /** The statuses sent and the streams each went out on, oldest first. */
  private readonly sent = new Map<string, string[][]>();
  /** The newest notification the app has been sent or was there before it subscribed. */
  private notificationsAfter: Keyset | null = null;
  private work: Promise<void> = Promise.resolve();
  private notificationsPending = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly caller: ClientCaller,
    private readonly outlet: StreamOutlet,
  ) {}

  private get viewer(): Viewer {
    return this.caller.viewer;
  }

  /** Subscribes to the stream the request names; a refusal is told on the socket, as apps expect. */
  async subscribe(request: { stream?: unknown; tag?: unknown }): Promise<void> {
    let subscription: Subscription;
    try {
      subscription = subscriptionOf(this.viewer, this.caller.scopes, request);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      this.outlet.send(JSON.stringify({ error: err.message, status: err.statusCode }));
      return;
    }
    if (subscription.notifications && !this.notificationsAfter) this.notificationsAfter = await this.newestNotification();
    this.subscriptions.set(subscription.label.join('\n'), subscription);
  }

  unsubscribe(request: { stream?: unknown; tag?: unknown }): void {
    const { stream, tag } = request;
    if (!isClientStream(stream)) return;
    this.subscriptions.delete((isHashtagStream(stream) ? [stream, String(tag)] : [stream]).join('\n'));
  }

  /** A message of the app: subscribing and leaving are handled in turn with the signals. */
  received(text: string): void {
    let request: { type?: unknown; stream?: unknown; tag?: unknown };
    try {
      request = JSON.parse(text) as typeof request;
    } catch {
      return;
    }
    if (request?.type === 'subscribe') this.queue(() => this.subscribe(request));
    else if (request?.type === 'unsubscribe') this.queue(async () => this.unsubscribe(request));
  }

  /** A post was made, changed or is going: handled after the signals before it. */
  postChanged(change: PostChange, postId: string): void {
    this.queue(() => (change === 'deleted' ? this.postDeleted(postId) : this.postShown(postId, change === 'created' ? 'update' : 'status.update')));
  }

  /** The viewer's notifications changed: sends the new ones, once however many signals came meanwhile. */
  notificationsChanged(): void {
    if (this.notificationsPending) return;
    this.notificationsPending = true;
    this.queue(async () => {
      this.notificationsPending = false;
      await this.sendNewNotifications();
    });
  }

  /** Resolves once every signal so far has been handled (the socket closing waits for nothing else). */
  settled(): Promise<void> {
    return this.work;
  }

  private queue(step: () => Promise<void>): void {
    this.work = this.work.then(async () => {
      if (this.outlet.open) await step();
    }).catch((err: unknown) => this.ctx.app.log.warn({ err }, 'client stream could not read what changed'));
  }

  private async postShown(postId: string, event: ClientStreamEvent): Promise<void> {
    const showing: string[][] = [];
    let post: PostView | undefined;
    for (const subscription of this.subscriptions.values()) {
      if (!subscription.scope) continue;
      const listed = await listedInScope(this.ctx, this.viewer, subscription.scope, postId);
      if (!listed || (subscription.local && listed.remote)) continue;
      post = listed;
      showing.push(subscription.label);
    }
    if (!post) return;
    const [status] = await postStatuses(this.ctx, this.viewer, [post]);
    if (!status) return;
    this.remember(postId, showing);
    for (const label of showing) this.emit(label, event, JSON.stringify(status satisfies Status));
  }

  /** Only the streams that were sent the status hear it is gone: its id tells the others nothing they saw. */
  private async postDeleted(postId: string): Promise<void> {
    const labels = this.sent.get(postId);
    if (!labels) return;
    this.sent.delete(postId);
    for (const label of labels) if (this.subscriptions.has(label.join('\n'))) this.emit(label, 'delete', postId);
  }

  private remember(postId: string, labels: string[][]): void {
    this.sent.delete(postId);
    this.sent.set(postId, labels);
    if (this.sent.size > REMEMBERED) this.sent.delete(this.sent.keys().next().value!);
  }

  private async newestNotification(): Promise<Keyset> {
    const [newest] = await keyedNotifications(this.ctx, this.viewer.id, ALL_KINDS, { limit: 1 });
    return newest ? { at: Number(newest.created_at), id: newest.id } : { at: 0, id: '' };
  }

  private async sendNewNotifications(): Promise<void> {
    const streams = [...this.subscriptions.values()].filter((subscription) => subscription.notifications);
    if (streams.length === 0 || !this.notificationsAfter) return;
    const bounds = { above: this.notificationsAfter, nearAbove: true, limit: NOTIFICATIONS_PER_READ };
    // Newest first as listed; sent oldest first, as they happened.
    const rows = (await keyedNotifications(this.ctx, this.viewer.id, ALL_KINDS, bounds)).reverse();
    const newest = rows.at(-1);
    if (!newest) return;
    this.notificationsAfter = { at: Number(newest.created_at), id: newest.id };
    const notifications: ClientNotification[] = await asClientNotifications(this.ctx, this.viewer, rows);
    for (const notification of notifications) {
      for (const { label } of streams) this.emit(label, 'notification', JSON.stringify(notification));
    }
  }

  private emit(stream: string[], event: ClientStreamEvent, payload: string): void {
    if (!this.outlet.open) return;
    const message: StreamMessage = { stream, event, payload };
    this.outlet.send(JSON.stringify(message));
  }
}
