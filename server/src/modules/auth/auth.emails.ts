import type { FastifyInstance } from 'fastify';

/** The messages accounts send, in the user's language (en or cs), as plain text. */

export type MailLanguage = 'en' | 'cs';

export const mailLanguage = (language: string | null | undefined): MailLanguage => (language === 'cs' ? 'cs' : 'en');

/** Link into the web app (hash routing): `{publicUrl}/#/{route}?token=...&email=...`. */
export function appLink(app: FastifyInstance, route: 'verify' | 'reset', token: string, email: string): string {
  const query = new URLSearchParams({ token, email });
  return `${app.config.publicUrl}/#/${route}?${query.toString()}`;
}

type Template = (username: string, link: string) => { subject: string; text: string };

const TEMPLATES: Record<'verify' | 'change_email' | 'reset_password' | 'google_account', Record<MailLanguage, Template>> = {
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
};

export type MailKind = keyof typeof TEMPLATES;

/**
 * Sends one of the account messages. A delivery failure is logged, not thrown: the change it
 * belongs to is already saved, and the user can ask for a new link (log in again, or ask for a
 * reset again).
 */
export async function sendAccountMail(
  app: FastifyInstance,
  kind: MailKind,
  to: { email: string; username: string; language: string | null | undefined },
  link: string,
): Promise<void> {
  const { subject, text } = TEMPLATES[kind][mailLanguage(to.language)](to.username, link);
  try {
    await app.mailer.send({ to: to.email, subject, text });
  } catch (err) {
    app.log.error({ err, to: to.email, kind }, 'sending mail failed');
  }
}
