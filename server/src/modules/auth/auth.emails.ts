import type { FastifyInstance } from 'fastify';
import { appPaths } from '#core/app-paths';
import type { Executor, UserRow } from '../../db/schema.js';
import { lockRateKey } from '../../lib/rate-limit.js';
import { enqueueJob } from '../../lib/jobs/queue.js';
import type { OutsideJob } from '../../lib/jobs/job-handler.js';
import { isGoogleOnlyAccount } from './auth.mapper.js';
import type { UserRecord } from './auth.records.js';
import { findUserById, latestEmailTokenAt } from './auth.repository.js';
import { issueEmailToken } from './email-tokens.js';

/** The messages accounts send, in the user's language (en or cs), as plain text. */

export type MailLanguage = 'en' | 'cs';

export const mailLanguage = (language: string | null | undefined): MailLanguage => (language === 'cs' ? 'cs' : 'en');

/** Link into the web app: `{publicUrl}/{route}?token=...&email=...`. */
export function appLink(app: FastifyInstance, route: 'verify' | 'reset', token: string, email: string): string {
  const query = new URLSearchParams({ token, email });
  return `${app.config.publicUrl}/${route}?${query.toString()}`;
}

type Template = (username: string, link: string) => { subject: string; text: string };

type Kinds = 'verify' | 'change_email' | 'reset_password' | 'google_account' | 'registration_approved' | 'registration_refused';

const TEMPLATES: Record<Kinds, Record<MailLanguage, Template>> = {
  verify: {
    en: (username, link) => ({
      subject: 'Confirm your email address for Kruh',
      text: `Hi ${username},\n\nwelcome to Kruh! Open this link to confirm your email address:\n\n${link}\n\nThe link is valid for 24 hours. If you did not sign up, ignore this email.`,
    }),
    cs: (username, link) => ({
      subject: 'Potvrďte svou e-mailovou adresu pro Kruh',
      text: `Dobrý den, ${username},\n\nvítejte v Kruhu! Otevřením tohoto odkazu potvrdíte svou e-mailovou adresu:\n\n${link}\n\nOdkaz platí 24 hodin. Pokud jste se neregistrovali, tento e-mail ignorujte.`,
    }),
  },
  change_email: {
    en: (username, link) => ({
      subject: 'Confirm your new email address for Kruh',
      text: `Hi ${username},\n\nopen this link to use this address for your Kruh account:\n\n${link}\n\nThe link is valid for 24 hours. Until then your account keeps its current address. If you did not ask for this, ignore this email.`,
    }),
    cs: (username, link) => ({
      subject: 'Potvrďte novou e-mailovou adresu pro Kruh',
      text: `Dobrý den, ${username},\n\notevřením tohoto odkazu nastavíte tuto adresu pro svůj účet v Kruhu:\n\n${link}\n\nOdkaz platí 24 hodin. Do té doby účet používá současnou adresu. Pokud jste o změnu nežádali, tento e-mail ignorujte.`,
    }),
  },
  reset_password: {
    en: (username, link) => ({
      subject: 'Reset your Kruh password',
      text: `Hi ${username},\n\nopen this link to choose a new password:\n\n${link}\n\nThe link is valid for 1 hour. If you did not ask for this, ignore this email; your password stays as it is.`,
    }),
    cs: (username, link) => ({
      subject: 'Obnovení hesla do Kruhu',
      text: `Dobrý den, ${username},\n\notevřením tohoto odkazu si zvolíte nové heslo:\n\n${link}\n\nOdkaz platí 1 hodinu. Pokud jste o obnovení nežádali, tento e-mail ignorujte; heslo zůstává beze změny.`,
    }),
  },
  google_account: {
    en: (username, link) => ({
      subject: 'Signing in to Kruh',
      text: `Hi ${username},\n\nsomeone asked to reset the password of your Kruh account. Your account signs in with Google and has no password: use "Sign in with Google" at\n\n${link}`,
    }),
    cs: (username, link) => ({
      subject: 'Přihlášení do Kruhu',
      text: `Dobrý den, ${username},\n\nněkdo požádal o obnovení hesla k vašemu účtu v Kruhu. Váš účet se přihlašuje přes Google a heslo nemá: použijte „Přihlásit se přes Google“ na\n\n${link}`,
    }),
  },
  registration_approved: {
    en: (username, link) => ({
      subject: 'Your Kruh account is approved',
      text: `Hi ${username},\n\nthe moderators approved your account. Once your email address is confirmed, you can sign in at\n\n${link}`,
    }),
    cs: (username, link) => ({
      subject: 'Váš účet v Kruhu je schválen',
      text: `Dobrý den, ${username},\n\nmoderátoři váš účet schválili. Jakmile potvrdíte svou e-mailovou adresu, můžete se přihlásit na\n\n${link}`,
    }),
  },
  registration_refused: {
    en: (username, link) => ({
      subject: 'Your Kruh sign-up',
      text: `Hi ${username},\n\nthe moderators of ${link} did not approve your sign-up, so the account cannot be used.`,
    }),
    cs: (username, link) => ({
      subject: 'Vaše registrace do Kruhu',
      text: `Dobrý den, ${username},\n\nmoderátoři ${link} vaši registraci neschválili, účet proto nelze používat.`,
    }),
  },
};

export type MailKind = keyof typeof TEMPLATES;

/**
 * Account mail goes through the durable job queue, so a mail server that is down delays a message
 * instead of losing it: the worker retries with a growing delay for about a day. The job holds no
 * link: its token is made when the mail is sent (only its hash is stored, as for every link), so
 * a waiting job leaks nothing and a late mail still carries a link valid for its full time.
 */
export const ACCOUNT_MAIL_JOB = 'account_mail';

interface AccountMail {
  kind: MailKind;
  userId: string;
  /** Where the mail goes: the account's address, or the new one for an address change. */
  email: string;
  /** When the user asked, to skip a retried mail whose request a newer one has replaced. */
  requestedAt: number;
  /** The account's token version then: a reset mail is dropped once the password has changed. */
  tokenVersion: number;
}

declare module '../../lib/jobs/job-handler.js' {
  interface JobPayloads {
    [ACCOUNT_MAIL_JOB]: AccountMail;
  }
}

type MailUser = Pick<UserRow, 'id' | 'token_version'>;

/** Queues one of the account messages; in the caller's transaction, it is sent only if that commits. */
export async function enqueueAccountMail(db: Executor, kind: MailKind, user: MailUser, email: string, now: number = Date.now()): Promise<void> {
  const mail: AccountMail = { kind, userId: user.id, email, requestedAt: now, tokenVersion: Number(user.token_version) };
  await enqueueJob(db, ACCOUNT_MAIL_JOB, mail, now);
}

/** Whether the mail still fits the account as it is when the job runs. */
function stillWanted(mail: AccountMail, user: UserRecord): boolean {
  switch (mail.kind) {
    case 'verify':
      return user.email === mail.email && !user.verified;
    case 'change_email':
      return user.email !== mail.email && !isGoogleOnlyAccount(user);
    case 'reset_password':
      return user.email === mail.email && !isGoogleOnlyAccount(user) && Number(user.token_version) === mail.tokenVersion;
    case 'google_account':
      return user.email === mail.email && isGoogleOnlyAccount(user);
    case 'registration_approved':
    case 'registration_refused':
      return user.email === mail.email;
  }
}

/** The mail's link, with a fresh token; null when a newer request's link was already sent. */
async function linkFor(app: FastifyInstance, mail: AccountMail, now: number): Promise<string | null> {
  if (mail.kind === 'google_account' || mail.kind === 'registration_approved') return `${app.config.publicUrl}${appPaths.login()}`;
  if (mail.kind === 'registration_refused') return app.config.publicUrl;
  const purpose = mail.kind;
  const token = await app.db.transaction().execute(async (trx) => {
    await lockRateKey(trx, `mail:${purpose}:${mail.userId}`);
    const latest = await latestEmailTokenAt(trx, mail.userId, purpose);
    if (latest !== null && latest > mail.requestedAt) return null;
    return issueEmailToken(trx, mail.userId, purpose, mail.email, now, mail.requestedAt);
  });
  return token === null ? null : appLink(app, purpose === 'reset_password' ? 'reset' : 'verify', token, mail.email);
}

async function sendAccountMail(app: FastifyInstance, mail: AccountMail, now: number): Promise<void> {
  const user = await findUserById(app.db, mail.userId);
  if (!user || !stillWanted(mail, user)) return;
  const link = await linkFor(app, mail, now);
  if (link === null) return;
  const { subject, text } = TEMPLATES[mail.kind][mailLanguage(user.language)](user.username, link);
  // A failure throws: the job is tried again later.
  await app.mailer.send({ kind: mail.kind, to: mail.email, subject, text });
}

/** One attempt after each growing delay up to an hour, then hourly: about a day in all. */
export const accountMailJob: OutsideJob<AccountMail> = { outside: sendAccountMail, maxAttempts: 36 };
