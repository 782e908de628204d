/** Text as HTML that shows it as written: every character markup could start with is escaped. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
